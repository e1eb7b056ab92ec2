package dev.levee.bench.hadoop.median.suite;

import dev.levee.it.hadoop.MiniClusterSettings;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * A reducer that holds its whole input in memory: the shuffle keeps every map output on the heap,
 * no in-memory merge starts before the last one arrives, and the reducer is fed from memory.
 * Nothing spills, so the only thing left to compare is what SpongeFiles cost when they are switched
 * on but unused.
 */
public final class NoSpillReducer {
  static final float SHUFFLE_BUFFER = 0.7f;
  static final float MERGE_PERCENT = 0.9f;

  /**
   * The input may fill at most this share of the merge threshold (fetch overshoot, IFile framing).
   */
  static final double HEADROOM = 0.8;

  /**
   * The share of the heap SpongeFiles' shuffle applies its fractions to: the old generation ({@code
   * TenuredHeap}), two thirds of the heap under the serial collector the bench's tasks run with its
   * default {@code NewRatio=2}. Stock applies them to all of -Xmx. A heap sized for stock's
   * arithmetic alone let SpongeFiles' in-memory merge start at 211 MB of a 240 MB input on the
   * emulated disk (230 MB spilled into sponges at 503 MB), so the line was no bound for it.
   */
  static final double OLD_GENERATION_SHARE = 2.0 / 3;

  /** The reduce task's own heap (framework objects, fetch buffers, output). */
  static final int BASELINE_HEAP_MB = 48;

  /** Container size above the heap: metaspace, thread stacks, direct buffers. */
  static final int CONTAINER_OVERHEAD_MB = 256;

  private NoSpillReducer() {}

  /**
   * The heap that keeps {@code reducerInputBytes} below the in-memory merge threshold with
   * headroom, stock's and SpongeFiles' alike (the latter's is the lower: {@link
   * #OLD_GENERATION_SHARE}).
   */
  public static int heapMb(long reducerInputBytes) {
    double heapBytes =
        reducerInputBytes / (SHUFFLE_BUFFER * MERGE_PERCENT * HEADROOM * OLD_GENERATION_SHARE);
    return (int) Math.ceil(heapBytes / (1 << 20)) + BASELINE_HEAP_MB;
  }

  /** {@code base} with a reducer of {@code heapMb} that neither spills nor merges to disk. */
  public static Configuration configure(Configuration base, int heapMb) {
    Configuration c = new Configuration(base);
    c.set(
        MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx" + heapMb + "m " + MiniClusterSettings.TASK_JVM_FLAGS);
    c.setInt(MRJobConfig.REDUCE_MEMORY_MB, heapMb + CONTAINER_OVERHEAD_MB);
    c.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, SHUFFLE_BUFFER);
    c.setFloat(MRJobConfig.SHUFFLE_MERGE_PERCENT, MERGE_PERCENT);
    // Keep every map output for the reducer instead of merging it to disk first (stock's default is
    // 0).
    c.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 1.0f);
    return c;
  }
}
