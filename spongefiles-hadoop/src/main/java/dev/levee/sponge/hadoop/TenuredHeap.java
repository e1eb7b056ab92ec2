package dev.levee.sponge.hadoop;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;

/**
 * The heap that long-lived objects can occupy in this JVM. Shuffled map outputs held in memory
 * survive many young collections and end in the old generation; when that generation cannot hold
 * them the JVM fails with "Java heap space" however much of -Xmx the young generation still has.
 * With the serial or parallel collector and the default {@code -XX:NewRatio=2} the old generation
 * is two thirds of the heap, less than stock Hadoop's default in-memory shuffle share (0.7 of the
 * heap, and one map output more while a merge is pending). A single-space collector (G1, ZGC,
 * Shenandoah) reports no smaller pool, and the whole heap counts.
 */
final class TenuredHeap {
  private TenuredHeap() {}

  /** The old generation's maximum size, or the JVM's maximum heap when there is no smaller one. */
  static long capacity() {
    long heap = Runtime.getRuntime().maxMemory();
    long old = -1;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      String name = pool.getName().toLowerCase(Locale.ROOT);
      if (pool.getType() != MemoryType.HEAP
          || name.contains("eden")
          || name.contains("survivor")
          || name.contains("nursery")
          || name.contains("young")) {
        continue;
      }
      long max = pool.getUsage().getMax();
      if (max > 0) {
        old = Math.max(old, max);
      }
    }
    return old > 0 ? Math.min(old, heap) : heap;
  }
}
