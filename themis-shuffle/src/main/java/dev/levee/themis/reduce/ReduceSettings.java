package dev.levee.themis.reduce;

import dev.levee.config.ConfigSource;
import dev.levee.themis.Overflow;
import dev.levee.themis.ThemisConf;

/** The reduce-side settings of one task, read once through {@link ThemisConf}. */
record ReduceSettings(long budget, Overflow overflow, int chunkLimit) {

  static ReduceSettings from(ConfigSource conf, long maxHeap) {
    long size = ThemisConf.REDUCE_MEMORY_SIZE.from(conf);
    long budget = size > 0 ? size : (long) (maxHeap * ThemisConf.REDUCE_MEMORY_FRACTION.from(conf));
    // A chunk never exceeds a quarter of the budget, so a segment larger than the budget can be
    // spilled in pieces while it streams in.
    int chunk =
        (int)
            Math.max(
                4 << 10,
                Math.min(ThemisConf.REDUCE_CHUNK_SIZE.from(conf), Math.max(1, budget / 4)));
    return new ReduceSettings(budget, ThemisConf.REDUCE_OVERFLOW.from(conf), chunk);
  }
}
