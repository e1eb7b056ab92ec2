package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeCounters.Counter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one reduce task's merge did, for the task counters. A merge round is one pass that reads
 * spilled runs back: stock Hadoop needs several once there are more runs than {@code
 * mapreduce.task.io.sort.factor}; SpongeFiles need one, unless the runs' read buffers do not fit
 * the task's direct memory ({@link MergeBufferBudget}).
 */
final class MergeStatistics {
  private final AtomicLong mapOutputsToSponge = new AtomicLong();
  private final AtomicLong memorySpills = new AtomicLong();
  private final AtomicLong mergeRounds = new AtomicLong();
  private final AtomicLong finalMergeRuns = new AtomicLong();
  private final AtomicLong intermediateRounds = new AtomicLong();
  private final AtomicLong finalPrefetch = new AtomicLong();

  /** A map output too big for memory went straight into a SpongeFile. */
  void mapOutputToSponge() {
    mapOutputsToSponge.incrementAndGet();
  }

  /** In-memory map outputs were merged into a SpongeFile to free the shuffle buffer. */
  void memorySpill() {
    memorySpills.incrementAndGet();
  }

  /**
   * Buffered runs were merged into one before the final merge because their read buffers would not
   * fit.
   */
  void intermediateMerge() {
    intermediateRounds.incrementAndGet();
    mergeRounds.incrementAndGet();
  }

  /**
   * The final merge read {@code spilledRuns} SpongeFiles (and the retained in-memory runs) in one
   * pass, fetching each run's next chunk ahead when {@code prefetch}.
   */
  void finalMerge(int spilledRuns, int totalRuns, boolean prefetch) {
    if (spilledRuns > 0) {
      mergeRounds.incrementAndGet();
      if (prefetch) {
        finalPrefetch.set(1);
      }
    }
    finalMergeRuns.addAndGet(totalRuns);
  }

  Map<String, Long> asMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put(Counter.SHUFFLE_MAP_OUTPUTS_TO_SPONGE.counterName(), mapOutputsToSponge.get());
    m.put(Counter.SHUFFLE_MEMORY_SPILLS.counterName(), memorySpills.get());
    m.put(Counter.MERGE_ROUNDS.counterName(), mergeRounds.get());
    m.put(Counter.MERGE_FINAL_RUNS.counterName(), finalMergeRuns.get());
    m.put(Counter.MERGE_FINAL_PREFETCH.counterName(), finalPrefetch.get());
    m.put(Counter.MERGE_INTERMEDIATE_ROUNDS.counterName(), intermediateRounds.get());
    return m;
  }
}
