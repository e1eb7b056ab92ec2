package dev.levee.sponge.hadoop;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The reduce-side memory limits, computed from the same keys and with the same arithmetic as stock
 * Hadoop's merge manager, so that SpongeFiles change where spills go but never how much a reducer
 * keeps on its heap.
 *
 * @param memoryLimit bytes of shuffled map outputs held in memory ({@code
 *     shuffle.input.buffer.percent} of the heap)
 * @param maxSingleShuffle a map output larger than this goes straight to a SpongeFile ({@code
 *     memory.limit.percent})
 * @param mergeThreshold committed in-memory bytes that start a merge into a SpongeFile ({@code
 *     merge.percent})
 * @param maxRetainedForReduce bytes of map outputs the reducer may keep in memory ({@code
 *     reduce.input.buffer.percent})
 */
record ShuffleMemoryBudget(
    long memoryLimit, long maxSingleShuffle, long mergeThreshold, long maxRetainedForReduce) {
  /** Stock's default for {@link MRJobConfig#SHUFFLE_MEMORY_LIMIT_PERCENT}. */
  static final float DEFAULT_SINGLE_SHUFFLE_PERCENT = 0.25f;

  static ShuffleMemoryBudget of(JobConf job) {
    float input =
        fraction(
            job,
            MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT,
            MRJobConfig.DEFAULT_SHUFFLE_INPUT_BUFFER_PERCENT);
    long limit =
        (long)
            (job.getLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, Runtime.getRuntime().maxMemory())
                * input);
    float single =
        fraction(job, MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT, DEFAULT_SINGLE_SHUFFLE_PERCENT);
    long maxSingle = Math.min(Integer.MAX_VALUE, (long) (limit * single));
    long threshold =
        (long)
            (limit
                * fraction(
                    job,
                    MRJobConfig.SHUFFLE_MERGE_PERCENT,
                    MRJobConfig.DEFAULT_SHUFFLE_MERGE_PERCENT));
    if (maxSingle >= threshold) {
      throw new IllegalArgumentException(
          "invalid reduce shuffle memory: a single map output may take "
              + maxSingle
              + " bytes ("
              + MRJobConfig.SHUFFLE_MEMORY_LIMIT_PERCENT
              + ") but merges start at "
              + threshold
              + " bytes ("
              + MRJobConfig.SHUFFLE_MERGE_PERCENT
              + "); the first must be smaller");
    }
    long retained = (long) (limit * fraction(job, MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0f));
    return new ShuffleMemoryBudget(limit, maxSingle, threshold, retained);
  }

  private static float fraction(JobConf job, String key, float dflt) {
    float f = job.getFloat(key, dflt);
    if (!(f >= 0f && f <= 1f)) {
      throw new IllegalArgumentException(
          "invalid " + key + "='" + job.get(key) + "': expected a fraction in [0, 1]");
    }
    return f;
  }
}
