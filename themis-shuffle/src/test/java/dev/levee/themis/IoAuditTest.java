package dev.levee.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.jupiter.api.Test;

/** The audit's arithmetic on counters shaped like a Themis job's, a stock job's, an overflow. */
class IoAuditTest {
  private static final long D = 100_000_000;
  private static final int MAPS = 10;
  private static final int REDUCERS = 4;
  private static final long INDEX = MAPS * (REDUCERS * 24L + 8);

  private static Counters counters(long fileWritten, long fileRead, long shuffle) {
    Counters c = new Counters();
    c.findCounter(TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES).setValue(D);
    c.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).setValue(shuffle);
    c.findCounter("file", FileSystemCounter.BYTES_WRITTEN).setValue(fileWritten);
    c.findCounter("file", FileSystemCounter.BYTES_READ).setValue(fileRead);
    c.findCounter("hdfs", FileSystemCounter.BYTES_READ).setValue(D);
    c.findCounter("hdfs", FileSystemCounter.BYTES_WRITTEN).setValue(D);
    return c;
  }

  @Test
  void themisWritesAndReadsTheIntermediateDataOnce() {
    Counters c = counters(D + INDEX, 0, D);
    c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_INDEX_BYTES).setValue(INDEX);
    IoAudit.Report r = IoAudit.of(c, MAPS, REDUCERS, 0, 0);
    assertEquals(2.0, r.readsPerRecord(), 1e-9);
    assertEquals(2.0, r.writesPerRecord(), 1e-9);
    assertTrue(r.twoIo(), r.summary());
    assertTrue(r.findings().isEmpty(), r.summary());
  }

  @Test
  void stockWithItsFinalMergeSpillFails() {
    // Map: one spill renamed (1 write). Reduce: every in-memory segment merged to disk before
    // reduce() (1 write, 1 read), on top of the shuffle read.
    Counters c = counters(2 * D + INDEX, D, D);
    IoAudit.Report r = IoAudit.of(c, MAPS, REDUCERS, 0, 0);
    assertEquals(3.0, r.readsPerRecord(), 1e-9);
    assertEquals(3.0, r.writesPerRecord(), 1e-9);
    assertFalse(r.twoIo());
    assertFalse(r.accountedFor());
    assertTrue(r.summary().contains("1.00 extra local writes"), r.summary());
  }

  @Test
  void overflowIsAccountedForButNotTwoIo() {
    long overflow = D / 5;
    Counters c = counters(D + overflow + INDEX, overflow, D);
    c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_INDEX_BYTES).setValue(INDEX);
    c.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_OVERFLOW_BYTES).setValue(overflow);
    IoAudit.Report r = IoAudit.of(c, MAPS, REDUCERS, 0, 0);
    assertTrue(r.accountedFor(), r.summary());
    assertFalse(r.twoIo());
    assertEquals(2.2, r.writesPerRecord(), 1e-9);
    assertTrue(r.summary().contains("overflowed"), r.summary());
  }

  @Test
  void eachTasksOwnJobXmlIsNotIntermediateData() {
    long jobXml = 14 * 300_000L;
    Counters c = counters(D + INDEX + jobXml, 0, D);
    assertFalse(IoAudit.of(c, MAPS, REDUCERS, 0, 0).twoIo(), "unexplained writes fail the audit");
    assertTrue(IoAudit.of(c, MAPS, REDUCERS, jobXml, 0).twoIo(), "estimated for a stock job");
    c.findCounter(ThemisCounters.GROUP, ThemisCounters.TASK_LOCAL_BYTES_BEFORE).setValue(jobXml);
    assertTrue(IoAudit.of(c, MAPS, REDUCERS, 0, 0).twoIo(), "measured by Themis in each task");
  }

  @Test
  void unreportedExtraIoIsNotAccountedFor() {
    long overflow = D / 5;
    Counters c = counters(D + 2 * overflow + INDEX, overflow, D);
    c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_INDEX_BYTES).setValue(INDEX);
    c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_OVERFLOW_BYTES).setValue(overflow);
    assertFalse(IoAudit.of(c, MAPS, REDUCERS, 0, 0).accountedFor());
  }
}
