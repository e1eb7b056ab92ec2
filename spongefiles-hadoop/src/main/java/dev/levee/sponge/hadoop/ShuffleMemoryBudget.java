package dev.levee.sponge.hadoop;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * The reduce-side memory limits, computed from the same keys and with the same arithmetic as stock
 * Hadoop's merge manager, applied to the heap the held map outputs can really occupy, so that a
 * reducer with SpongeFiles never needs more heap than stock for the same settings.
 *
 * <p>Two things make the limits tighter than stock's, both because a spill into a SpongeFile is
 * cheap (it lands in memory, local or remote, while it can):
 *
 * <ul>
 *   <li>the fractions apply to the heap long-lived objects can occupy ({@link TenuredHeap}): the
 *       old generation under a generational collector, not all of -Xmx. Stock applies its 0.7 to
 *       -Xmx; with the serial or parallel collector and a small heap that exceeds the old
 *       generation, and a reducer that finds every map output ready at once dies of "Java heap
 *       space" (stock included);
 *   <li>held map outputs never exceed {@code max(memoryLimit, mergeThreshold + maxSingleShuffle)}
 *       ({@link #admits}): stock lets one fetch overshoot {@code memoryLimit} by up to a whole
 *       single shuffle, so that the merge its commit starts unblocks the others. Here a fetch that
 *       would overshoot waits unless fewer bytes than the merge threshold are held; then no merge
 *       could be coming, and the bound above holds. With stock's default fractions (0.66 + 0.25
 *       &lt; 1) the peak is {@code memoryLimit} itself.
 * </ul>
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
    return of(job, TenuredHeap.capacity());
  }

  /**
   * @param tenuredHeap the bytes long-lived objects can occupy in this JVM; the limits apply to
   *     this or to {@code mapreduce.reduce.memory.totalbytes}, whichever is smaller
   */
  static ShuffleMemoryBudget of(JobConf job, long tenuredHeap) {
    float input =
        fraction(
            job,
            MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT,
            MRJobConfig.DEFAULT_SHUFFLE_INPUT_BUFFER_PERCENT);
    long limit =
        (long)
            (Math.min(
                    tenuredHeap,
                    job.getLong(
                        MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, Runtime.getRuntime().maxMemory()))
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

  /**
   * Whether a fetch of {@code requested} bytes may take memory while {@code used} bytes are held.
   * Refused fetches wait for a merge to drain memory; one is always pending or coming when at least
   * {@link #mergeThreshold} bytes are held (committed outputs start one at the threshold, and
   * reserved ones commit or give their memory back).
   */
  boolean admits(long used, long requested) {
    return used + requested <= memoryLimit || used < mergeThreshold;
  }

  /** The most bytes of map outputs held at once. */
  long peak() {
    return Math.max(memoryLimit, mergeThreshold + maxSingleShuffle);
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
