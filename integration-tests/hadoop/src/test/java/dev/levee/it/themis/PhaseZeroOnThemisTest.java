package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.themis.ThemisConf;
import dev.levee.themis.ThemisCounters;
import dev.levee.themis.plan.PlanPolicy;
import dev.levee.themis.plan.PlanReport;
import dev.levee.themis.plan.ThemisPartitioner;
import dev.levee.themis.plan.ThemisPlanner;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Phase 0 with no job code change: {@code mapreduce.framework.name=levee-themis} on the client, a
 * job that asks for one reducer with the default HashPartitioner over Zipf-skewed keys. Inside
 * submission Themis samples the map output, chooses the reducers so every partition fits, names the
 * hot key, and the job runs on YARN with the plan: the same per-key results as stock, no reducer
 * overflows, and still 2-IO.
 */
class PhaseZeroOnThemisTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  @Test
  void theThemisFrameworkPlansTheReducersSoEveryPartitionFits() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path base = new Path("/it/themis/phase0");
    Path input = TextInput.zipf(fs, new Path(base, "in"), 3, 20_000, 5_000, 1.2, 100, 81);

    Path stockOut = new Path(base, "stock");
    assertTrue(job(ThemisJobs.stockLocal(cluster), input, stockOut).waitForCompletion(false));

    Configuration conf = ThemisJobs.themis(cluster.clientConf());
    conf.set(MRConfig.FRAMEWORK_NAME, "levee-themis");
    conf.set(ThemisConf.REDUCE_MEMORY_SIZE.name(), "2m");
    conf.setBoolean(ThemisConf.PLAN_REQUIRED.name(), true);
    Path themisOut = new Path(base, "themis");
    Job themis = job(conf, input, themisOut);
    // The plan the submission will make (sampling is seeded, so it is the same plan).
    PlanReport expected = ThemisPlanner.plan(themis.getConfiguration());
    assertEquals(PlanPolicy.HASH, expected.policy());
    assertTrue(expected.reducers() > 1, expected.describe());
    assertTrue(
        themis.waitForCompletion(false), "planned job: " + themis.getStatus().getFailureInfo());

    Job ran = ThemisJobs.finishedJob(cluster.clientConf(), "key-stats");
    // The job's configuration as it ran: the AM's copy of the rewritten job.xml, from the history
    // server's done directory (Cluster.getJob cannot read an hdfs:// job file itself).
    Configuration ranConf = new Configuration(false);
    ranConf.addResource(fs.open(new Path(ran.getStatus().getJobFile())));
    assertEquals(
        expected.reducers(),
        ran.getTaskReports(TaskType.REDUCE).length,
        "the job ran with the planned reducers");
    assertEquals(expected.reducers(), ranConf.getInt(MRJobConfig.NUM_REDUCES, -1));
    assertEquals(
        ThemisPartitioner.class.getName(), ranConf.get(MRJobConfig.PARTITIONER_CLASS_ATTR));
    assertEquals("yarn", ranConf.get(MRConfig.FRAMEWORK_NAME));
    String heavy = ranConf.get(ThemisConf.PLAN_HEAVY_KEYS.name(), "");
    assertTrue(heavy.startsWith("k00000="), "the hot key is named: " + heavy);
    assertEquals(sortedLines(fs, stockOut), sortedLines(fs, themisOut));

    Counters c = ran.getCounters();
    assertEquals(
        0,
        c.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_OVERFLOW_RUNS).getValue(),
        "every partition fit");
    long largest = 0;
    for (TaskReport r : ran.getTaskReports(TaskType.REDUCE)) {
      Counters t = r.getTaskCounters();
      largest =
          Math.max(
              largest,
              t.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_FETCHED_BYTES).getValue()
                  + 8 * t.findCounter(TaskCounter.REDUCE_INPUT_RECORDS).getValue());
    }
    assertTrue(
        largest <= 1.2 * expected.largestPredictedPartition(),
        "largest partition " + largest + " vs predicted " + expected.largestPredictedPartition());
    ThemisJobs.assertTwoIo(ran);
  }

  private static List<String> sortedLines(FileSystem fs, Path dir) throws Exception {
    List<String> lines = new ArrayList<>(dev.levee.it.hadoop.ClusterFiles.readOutput(fs, dir));
    lines.sort(String::compareTo);
    return lines;
  }

  private static Job job(Configuration conf, Path in, Path out) throws Exception {
    Job job = Job.getInstance(conf);
    KeyStats.configure(job);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }
}
