package dev.levee.it.pig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.PigStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A Pig script with GROUP and ORDER BY, compiled to MapReduce jobs on the shared mini cluster. */
class PigGroupOrderTest {

  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  @Test
  void groupAndOrderGiveTheTotalsPerDepartmentLargestFirst() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path input = new Path("/it/pig/employees.tsv");
    Path output = new Path("/it/pig/totals");

    // dept -> {count, total}
    Map<String, long[]> byDept = new TreeMap<>();
    List<String> rows = new ArrayList<>();
    Random random = new Random(7);
    for (int i = 0; i < 3_000; i++) {
      // Skewed departments: d0 gets about half the rows.
      String dept = "d" + Integer.numberOfTrailingZeros(random.nextInt(1 << 12) | 1 << 11);
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

    PigServer pig = PigOnMiniCluster.start(cluster);
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
      assertEquals(1, jobs.size(), "one STORE, one ExecJob");
      ExecJob store = jobs.get(0);
      assertEquals(
          ExecJob.JOB_STATUS.COMPLETED, store.getStatus(), "Pig STORE: " + store.getException());
      PigStats stats = store.getStatistics();
      assertTrue(stats.isSuccessful(), "Pig stats: " + stats.getErrorMessage());
      // GROUP, then ORDER BY's sampling job and its sort job: all on YARN, none in Pig's local
      // mode.
      assertEquals(3, stats.getNumberJobs(), "MapReduce jobs the script compiled to");
    } finally {
      pig.shutdown();
    }

    assertEquals(expected, ClusterFiles.readOutput(fs, output));
  }
}
