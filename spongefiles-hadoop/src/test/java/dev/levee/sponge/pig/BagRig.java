package dev.levee.sponge.pig;

import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.testing.SpongeTestRig;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A real local sponge pool (shared memory under /dev/shm, local disk behind it) and a bag factory
 * spilling into it, with the counters the bags publish.
 */
final class BagRig implements AutoCloseable {
  static final int CHUNK = 64 * 1024;

  final SpongeTestRig rig;
  final SpongeFileSystem fs;
  final Map<String, Long> counters = new ConcurrentHashMap<>();
  final BagSpillSpace space;

  BagRig(int poolChunks) throws IOException {
    this(poolChunks, true);
  }

  /** Without local disk, a spill that outgrows the pool fails part-way through its SpongeFile. */
  BagRig(int poolChunks, boolean disk) throws IOException {
    rig = new SpongeTestRig(CHUNK, poolChunks);
    rig.conf.set("levee.sponge.dfs.enabled", "false");
    rig.conf.setBoolean("levee.sponge.disk.enabled", disk);
    fs = rig.open(null);
    space = BagSpillSpace.sponge(fs, counters());
  }

  BagCounters counters() {
    return (name, delta) -> counters.merge(name, delta, Long::sum);
  }

  /** Bags that spill only when told to (no memory budget). */
  SpongeBagFactory factory() {
    return factory(0);
  }

  SpongeBagFactory factory(long memoryBudgetBytes) {
    return new SpongeBagFactory(new BagSettings(() -> space, memoryBudgetBytes));
  }

  long counter(String name) {
    return counters.getOrDefault(name, 0L);
  }

  @Override
  public void close() throws IOException {
    try {
      fs.close();
    } finally {
      rig.close();
    }
  }
}
