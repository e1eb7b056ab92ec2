package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.themis.ThemisCounters;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.examples.terasort.TeraGen;
import org.apache.hadoop.examples.terasort.TeraSort;
import org.apache.hadoop.examples.terasort.TeraValidate;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hadoop's own TeraGen, TeraSort and TeraValidate (hadoop-mapreduce-examples): TeraSort on YARN
 * with Themis writes byte for byte what stock TeraSort writes, TeraValidate finds it sorted with
 * the same checksum, and the counters prove every intermediate byte was written once and read once.
 */
class TeraSortOnThemisTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  private static final long ROWS = 60_000;
  private static final int REDUCERS = 2;
  private static final long SPLIT = ROWS * 100 / 3;

  @Test
  void teraSortOnThemisEqualsStockAndValidates() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path base = new Path("/it/themis/terasort");
    Path input = new Path(base, "gen");

    Configuration gen = ThemisJobs.stockLocal(cluster);
    gen.setInt(MRJobConfig.NUM_MAPS, 3);
    assertEquals(
        0,
        ToolRunner.run(gen, new TeraGen(), new String[] {Long.toString(ROWS), input.toString()}));

    Configuration stock = ThemisJobs.stockLocal(cluster);
    stock.setInt(MRJobConfig.NUM_REDUCES, REDUCERS);
    stock.setLong(FileInputFormat.SPLIT_MAXSIZE, SPLIT);
    Path stockOut = new Path(base, "stock");
    assertEquals(
        0,
        ToolRunner.run(
            stock, new TeraSort(), new String[] {input.toString(), stockOut.toString()}));

    Configuration themis = ThemisJobs.themis(cluster.clientConf());
    themis.setInt(MRJobConfig.NUM_REDUCES, REDUCERS);
    themis.setLong(FileInputFormat.SPLIT_MAXSIZE, SPLIT);
    Path themisOut = new Path(base, "themis");
    assertEquals(
        0,
        ToolRunner.run(
            themis, new TeraSort(), new String[] {input.toString(), themisOut.toString()}));

    assertEquals(REDUCERS, ClusterFiles.partFiles(fs, themisOut).size());
    assertEquals(
        ThemisJobs.output(fs, stockOut),
        ThemisJobs.output(fs, themisOut),
        "TeraSort on Themis writes exactly stock's bytes");

    List<String> stockReport = validate(cluster, stockOut, new Path(base, "validate-stock"));
    List<String> themisReport = validate(cluster, themisOut, new Path(base, "validate-themis"));
    assertEquals(stockReport, themisReport, "same TeraValidate report (checksum)");
    assertTrue(
        themisReport.size() == 1 && themisReport.get(0).startsWith("checksum"),
        "TeraValidate reports only a checksum, no misorder: " + themisReport);

    Job job = ThemisJobs.finishedJob(cluster.clientConf(), "TeraSort");
    ThemisJobs.assertTwoIo(job);
    assertEquals(
        3,
        job.getCounters()
            .findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_UNSORTED_OUTPUTS)
            .getValue(),
        "TeraSort has no combiner: its maps wrote unsorted");
  }

  private static List<String> validate(MiniMapReduceCluster cluster, Path sorted, Path report)
      throws Exception {
    assertEquals(
        0,
        ToolRunner.run(
            ThemisJobs.stockLocal(cluster),
            new TeraValidate(),
            new String[] {sorted.toString(), report.toString()}));
    return ClusterFiles.readOutput(cluster.fileSystem(), report);
  }
}
