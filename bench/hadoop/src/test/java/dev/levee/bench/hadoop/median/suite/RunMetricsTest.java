package dev.levee.bench.hadoop.median.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.hadoop.median.logs.MergePasses;
import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.Tier;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;

class RunMetricsTest {
  @Test
  void stockSpillsOnlyToLocalDiskAndTakesItsRoundsFromTheLog() {
    Counters c = new Counters();
    c.findCounter("file", FileSystemCounter.BYTES_WRITTEN).increment(300);
    c.findCounter("file", FileSystemCounter.BYTES_READ).increment(500);
    c.findCounter(TaskCounter.SPILLED_RECORDS).increment(30);
    Map<String, Double> m =
        RunMetrics.reduceSide(Variant.STOCK, c, new MergePasses(3, 1, 1, 0, true));
    assertEquals(300.0, m.get("spill_local_disk_bytes"));
    assertEquals(0.0, m.get("spill_remote_memory_bytes"));
    assertEquals(300.0, m.get("spill_bytes"));
    assertEquals(3.0, m.get("merge_rounds"));
    assertEquals(1.0, m.get("merge_on_disk_merges"));
    assertEquals(500.0, m.get("reduce_local_fs_bytes_read"));
    assertFalse(RunMetrics.nothingSpilled(m));
  }

  @Test
  void stockWithoutItsLogHasNoMergeRoundsRatherThanZero() {
    assertFalse(
        RunMetrics.reduceSide(Variant.STOCK, new Counters(), null).containsKey("merge_rounds"));
  }

  @Test
  void spongeFilesBytesComeFromItsTiersAndAbsentRoundsMeanNone() {
    Counters c = new Counters();
    String g = SpongeCounters.GROUP;
    c.findCounter(g, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY)).increment(100);
    c.findCounter(g, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.REMOTE_MEMORY)).increment(150);
    c.findCounter(g, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_DISK)).increment(7);
    Map<String, Double> m = RunMetrics.reduceSide(Variant.SPONGEFILES, c, null);
    assertEquals(100.0, m.get("spill_local_memory_bytes"));
    assertEquals(150.0, m.get("spill_remote_memory_bytes"));
    assertEquals(7.0, m.get("spill_local_disk_bytes"));
    assertEquals(257.0, m.get("spill_bytes"));
    assertEquals(0.0, m.get("merge_rounds"));
    assertEquals(150.0, m.get("sponge.remote_memory.bytes_written"));
    c.findCounter(g, RunMetrics.SPONGE_MERGE_ROUNDS).increment(1);
    assertEquals(1.0, RunMetrics.reduceSide(Variant.SPONGEFILES, c, null).get("merge_rounds"));
  }

  @Test
  void theReduceTasksOwnLocalWritesAreNotASpillButRecordsOrSpongeBytesAre() {
    assertTrue(
        RunMetrics.nothingSpilled(
            RunMetrics.reduceSide(Variant.SPONGEFILES, new Counters(), null)));
    Counters baseline = new Counters();
    baseline.findCounter("file", FileSystemCounter.BYTES_WRITTEN).increment(303_976);
    assertTrue(RunMetrics.nothingSpilled(RunMetrics.reduceSide(Variant.STOCK, baseline, null)));
    baseline.findCounter(TaskCounter.SPILLED_RECORDS).increment(1);
    assertFalse(RunMetrics.nothingSpilled(RunMetrics.reduceSide(Variant.STOCK, baseline, null)));
    Counters sponge = new Counters();
    sponge
        .findCounter(SpongeCounters.GROUP, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_DISK))
        .increment(1);
    assertFalse(
        RunMetrics.nothingSpilled(RunMetrics.reduceSide(Variant.SPONGEFILES, sponge, null)));
  }
}
