package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.hadoop.median.logs.MergePasses;
import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.Tier;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * The reduce side of one Median run in comparable terms for both variants: bytes spilled per tier
 * (stock has only local disk: its reduce task's local-file bytes; SpongeFiles' tiers from its
 * counter group), merge rounds (stock's from its shuffle log, SpongeFiles' from its counter) and
 * the raw reduce counters behind them.
 */
final class RunMetrics {
  /** SpongeFiles' counter for merge passes over spilled runs. */
  static final String SPONGE_MERGE_ROUNDS = SpongeCounters.Counter.MERGE_ROUNDS.counterName();

  private RunMetrics() {}

  /**
   * @param reduce the reduce task's counters
   * @param stockPasses stock's merge passes as parsed from its log; null for SpongeFiles or when
   *     the log is missing
   */
  static Map<String, Double> reduceSide(Variant variant, Counters reduce, MergePasses stockPasses) {
    Map<String, Double> m = new LinkedHashMap<>();
    long fileWritten = reduce.findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue();
    long fileRead = reduce.findCounter("file", FileSystemCounter.BYTES_READ).getValue();
    m.put(
        "reduce_shuffle_bytes",
        (double) reduce.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue());
    m.put(
        "reduce_spilled_records",
        (double) reduce.findCounter(TaskCounter.SPILLED_RECORDS).getValue());
    m.put("reduce_local_fs_bytes_written", (double) fileWritten);
    m.put("reduce_local_fs_bytes_read", (double) fileRead);
    m.put("reduce_gc_ms", (double) reduce.findCounter(TaskCounter.GC_TIME_MILLIS).getValue());
    // The reduce task's own CPU: what a plugin costs it, free of the job's scheduling noise.
    m.put("reduce_cpu_ms", (double) reduce.findCounter(TaskCounter.CPU_MILLISECONDS).getValue());

    Map<Tier, Long> tierBytes = new LinkedHashMap<>();
    for (Tier t : Tier.values()) {
      tierBytes.put(t, 0L);
    }
    // Whatever reached the local file system through Hadoop is on the local disk, for either
    // variant.
    tierBytes.merge(Tier.LOCAL_DISK, fileWritten, Long::sum);
    if (variant == Variant.SPONGEFILES) {
      CounterGroup group = reduce.getGroup(SpongeCounters.GROUP);
      for (Tier t : Tier.values()) {
        tierBytes.merge(t, value(group, tierKey(t) + ".bytes_written"), Long::sum);
      }
      for (Counter c : group) {
        m.put("sponge." + c.getName(), (double) c.getValue());
      }
      // The plugin leaves zero counters out, so an absent merge.rounds means no pass over spilled
      // runs.
      m.put("merge_rounds", (double) value(group, SPONGE_MERGE_ROUNDS));
    } else if (stockPasses != null) {
      m.put("merge_rounds", (double) stockPasses.rounds());
      m.put("merge_on_disk_merges", (double) stockPasses.onDiskMerges());
      m.put("merge_intermediate_passes", (double) stockPasses.intermediatePasses());
      m.put("merge_memory_merges", (double) stockPasses.memoryMerges());
    }
    long total = 0;
    for (Map.Entry<Tier, Long> e : tierBytes.entrySet()) {
      m.put("spill_" + tierKey(e.getKey()) + "_bytes", (double) e.getValue());
      total += e.getValue();
    }
    m.put("spill_bytes", (double) total);
    return m;
  }

  /**
   * Whether the reduce side spilled nothing: no spilled records, no byte in any sponge tier and
   * nothing read back from local disk. Local bytes written alone do not count: the reduce task
   * writes about 0.3 MB locally whatever its heap (measured: the same figure with and without
   * spilling, never read back).
   */
  static boolean nothingSpilled(Map<String, Double> reduceSide) {
    double spongeDisk =
        reduceSide.getOrDefault("spill_local_disk_bytes", 0.0)
            - reduceSide.getOrDefault("reduce_local_fs_bytes_written", 0.0);
    return reduceSide.getOrDefault("reduce_spilled_records", 0.0) == 0
        && reduceSide.getOrDefault("reduce_local_fs_bytes_read", 0.0) == 0
        && reduceSide.getOrDefault("spill_local_memory_bytes", 0.0) == 0
        && reduceSide.getOrDefault("spill_remote_memory_bytes", 0.0) == 0
        && reduceSide.getOrDefault("spill_dfs_bytes", 0.0) == 0
        && spongeDisk == 0;
  }

  static String tierKey(Tier t) {
    return t.name().toLowerCase(Locale.ROOT);
  }

  private static long value(CounterGroup group, String name) {
    for (Counter c : group) {
      if (c.getName().equals(name)) {
        return c.getValue();
      }
    }
    return 0;
  }
}
