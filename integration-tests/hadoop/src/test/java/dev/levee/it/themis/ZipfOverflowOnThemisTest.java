package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.themis.IoAudit;
import dev.levee.themis.ThemisConf;
import dev.levee.themis.ThemisCounters;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Zipf-skewed keys into reducers whose Themis budget is smaller than their partitions: the
 * partitions overflow into sorted runs, the output still equals stock's, and the audit shows the
 * extra write and read are exactly the bytes Themis counted as overflow, on the reducers that
 * overflowed and no others.
 */
class ZipfOverflowOnThemisTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  private static final long BUDGET = 2_500_000;

  @Test
  void reducersOverflowIntoCountedRunsAndStillEqualStock() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path base = new Path("/it/themis/zipf");
    Path input = TextInput.zipf(fs, new Path(base, "in"), 3, 20_000, 5_000, 1.2, 100, 41);

    Path stockOut = new Path(base, "stock");
    assertTrue(job(ThemisJobs.stockLocal(cluster), input, stockOut).waitForCompletion(false));

    Configuration conf = ThemisJobs.themis(cluster.clientConf());
    // 6.6 MB shuffled to 3 reducers; the hottest key alone carries about a fifth of it.
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), Long.toString(BUDGET));
    Path themisOut = new Path(base, "themis");
    Job themis = job(conf, input, themisOut);
    assertTrue(themis.waitForCompletion(false));

    assertEquals(ThemisJobs.output(fs, stockOut), ThemisJobs.output(fs, themisOut));
    Counters c = themis.getCounters();
    long runs = c.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_OVERFLOW_RUNS).getValue();
    long bytes =
        c.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_OVERFLOW_BYTES).getValue();
    assertTrue(runs >= 1 && bytes > 0, "the reducers overflowed: " + runs + " runs");
    assertEquals(
        c.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_OVERFLOW_RECORDS).getValue(),
        c.findCounter(TaskCounter.SPILLED_RECORDS).getValue()
            - c.findCounter(TaskCounter.MAP_OUTPUT_RECORDS).getValue(),
        "every reduce-side local write is a counted overflow record");

    IoAudit.Report audit = IoAudit.of(ThemisJobs.finishedJob(cluster.clientConf(), "key-stats"));
    assertFalse(audit.twoIo(), "overflow costs I/O: " + audit.summary());
    assertTrue(audit.accountedFor(), "and every extra byte is counted: " + audit.summary());
    assertTrue(audit.writesPerRecord() > 2.05, audit.summary());

    // Per reducer: the overflow is the big partitions' alone.
    for (var report : themis.getTaskReports(TaskType.REDUCE)) {
      Counters t = report.getTaskCounters();
      long overflowed =
          t.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_OVERFLOW_BYTES).getValue();
      long fetched =
          t.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_FETCHED_BYTES).getValue();
      String what = report.getTaskId() + " fetched " + fetched + ", overflowed " + overflowed;
      if (fetched > BUDGET) {
        assertTrue(overflowed > 0, what);
      } else if (fetched < BUDGET * 0.8) {
        assertEquals(0, overflowed, what);
      }
    }
  }

  private static Job job(Configuration conf, Path in, Path out) throws Exception {
    Job job = Job.getInstance(conf);
    KeyStats.configure(job);
    job.setNumReduceTasks(3);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }
}
