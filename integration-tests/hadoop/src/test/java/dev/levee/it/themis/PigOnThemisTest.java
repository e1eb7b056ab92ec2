package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.it.pig.PigOnMiniCluster;
import dev.levee.themis.ThemisCounters;
import dev.levee.themis.map.ThemisMapOutputCollector;
import dev.levee.themis.reduce.ThemisShuffle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.JobStats;
import org.apache.pig.tools.pigstats.PigStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Pig script with GROUP (an algebraic COUNT and SUM, so Pig adds a combiner) and ORDER BY (Pig's
 * sampling job, then its own WeightedRangePartitioner, which Themis keeps), run with the two Themis
 * keys as Pig properties: the totals are exactly what stock MapReduce must give (computed here from
 * the generated rows: every count and sum, in order, nothing more), and every MapReduce job of the
 * run ran Themis's shuffle and is 2-IO. The oracle stands in for a stock run of the same script
 * (three more jobs, about 50 s of CI): stock's own Pig path is run by the other Pig tests.
 */
class PigOnThemisTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  @Test
  void groupAndOrderOnThemisEqualStockAndGiveTheTotalsLargestFirst() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path input = new Path("/it/themis/pig/employees.tsv");
    Map<String, long[]> byDept = new TreeMap<>();
    List<String> rows = new ArrayList<>();
    Random random = new Random(71);
    for (int i = 0; i < 20_000; i++) {
      String dept =
          "d" + Integer.numberOfTrailingZeros(random.nextInt(1 << 12) | 1 << 11) + "-" + (i % 37);
      int salary = 1_000 + random.nextInt(9_000);
      rows.add("e" + i + "\t" + dept + "\t" + salary);
      long[] agg = byDept.computeIfAbsent(dept, d -> new long[2]);
      agg[0]++;
      agg[1] += salary;
    }
    ClusterFiles.writeLines(fs, input, rows);
    List<String> expected = new ArrayList<>();
    byDept.entrySet().stream()
        .sorted(
            Comparator.comparingLong((Map.Entry<String, long[]> e) -> -e.getValue()[1])
                .thenComparing(Map.Entry::getKey))
        .forEach(e -> expected.add(e.getKey() + "\t" + e.getValue()[0] + "\t" + e.getValue()[1]));

    Properties themis = new Properties();
    themis.setProperty(
        MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ThemisMapOutputCollector.class.getName());
    themis.setProperty(MRConfig.SHUFFLE_CONSUMER_PLUGIN, ThemisShuffle.class.getName());
    Path themisOut = new Path("/it/themis/pig/totals-themis");
    List<String> themisJobs = runScript(cluster, input, themisOut, themis);

    assertEquals(expected, ClusterFiles.readOutput(fs, themisOut), "Themis against the oracle");
    for (String id : themisJobs) {
      Job job = ThemisJobs.finishedJob(cluster.clientConf(), JobID.forName(id));
      assertTrue(
          job.getCounters()
                  .findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_FETCHED_SEGMENTS)
                  .getValue()
              > 0,
          id + " ran Themis's shuffle");
      ThemisJobs.assertTwoIo(job);
    }
  }

  /**
   * Runs the GROUP + ORDER script over {@code input} into {@code output} with {@code extra} as Pig
   * properties on top of the cluster's; returns the ids of its MapReduce jobs.
   */
  private static List<String> runScript(
      MiniMapReduceCluster cluster, Path input, Path output, Properties extra) throws Exception {
    Properties properties = new Properties();
    properties.putAll(extra);
    properties.setProperty("default_parallel", "2");
    PigServer pig = PigOnMiniCluster.start(cluster, properties);
    List<String> jobIds = new ArrayList<>();
    try {
      pig.setBatchOn();
      pig.registerQuery(
          "emps = LOAD '" + input + "' AS (name:chararray, dept:chararray, salary:long);");
      pig.registerQuery("by_dept = GROUP emps BY dept;");
      pig.registerQuery(
          "totals = FOREACH by_dept GENERATE group AS dept, COUNT(emps) AS n, SUM(emps.salary) AS total;");
      pig.registerQuery("ordered = ORDER totals BY total DESC, dept ASC;");
      pig.registerQuery("STORE ordered INTO '" + output + "';");
      List<ExecJob> jobs = pig.executeBatch();
      ExecJob store = jobs.get(0);
      assertEquals(ExecJob.JOB_STATUS.COMPLETED, store.getStatus(), "Pig: " + store.getException());
      PigStats stats = store.getStatistics();
      assertTrue(stats.isSuccessful(), "Pig stats: " + stats.getErrorMessage());
      assertEquals(3, stats.getNumberJobs(), "GROUP, ORDER BY's sampler, ORDER BY's sort");
      for (JobStats js : stats.getJobGraph()) {
        jobIds.add(js.getJobId());
      }
    } finally {
      pig.shutdown();
    }
    return jobIds;
  }
}
