package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.themis.IoAudit;
import dev.levee.themis.ThemisCounters;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapred.WordCount;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hadoop's own WordCount (old API, with its reducer as combiner), stock and Themis, both on YARN:
 * same output, and the I/O audit passes for Themis and visibly fails for stock, whose reducers
 * write every fetched segment to disk and read it back before reduce().
 */
class WordCountOnThemisTest {
  private static final Logger LOG = LoggerFactory.getLogger(WordCountOnThemisTest.class);

  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  @Test
  void wordCountWithACombinerEqualsStockAndOnlyThemisIsTwoIo() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    Path base = new Path("/it/themis/wordcount");
    Path input = TextInput.words(fs, new Path(base, "in"), 3, 15_000, 21);
    String[] reducers = {"-r", "2"};

    // Both on YARN at once (the cluster holds two jobs): one job's time, not two.
    Path stockOut = new Path(base, "stock");
    Path themisOut = new Path(base, "themis");
    long since = System.currentTimeMillis();
    CompletableFuture<Integer> stockRun =
        CompletableFuture.supplyAsync(() -> run(cluster.clientConf(), reducers, input, stockOut));
    assertEquals(0, run(ThemisJobs.themis(cluster.clientConf()), reducers, input, themisOut));
    assertEquals(0, stockRun.get(5, TimeUnit.MINUTES));
    // WordCount names its job itself; Themis's is the one whose maps ran the Themis collector.
    List<Job> jobs = ThemisJobs.finishedJobs(cluster.clientConf(), "wordcount", since);
    assertEquals(2, jobs.size());
    Job themis = jobs.stream().filter(ThemisJobs::ranThemis).findFirst().orElseThrow();
    Job stock = jobs.stream().filter(j -> !ThemisJobs.ranThemis(j)).findFirst().orElseThrow();

    assertEquals(ThemisJobs.output(fs, stockOut), ThemisJobs.output(fs, themisOut));
    IoAudit.Report themisAudit = ThemisJobs.assertTwoIo(themis);
    assertEquals(2.0, themisAudit.readsPerRecord(), 0.01);
    assertEquals(2.0, themisAudit.writesPerRecord(), 0.01);
    assertEquals(
        3,
        themis
            .getCounters()
            .findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_SORTED_OUTPUTS)
            .getValue(),
        "the combiner ran at each map's one write");

    IoAudit.Report stockAudit = IoAudit.of(stock);
    LOG.info("I/O audit of stock wordcount: {}", stockAudit.summary());
    assertFalse(stockAudit.twoIo(), "stock is not 2-IO: " + stockAudit.summary());
    assertTrue(
        stockAudit.intermediateWrites() >= 1.9 && stockAudit.intermediateReads() >= 1.9,
        "stock writes and reads the intermediate data twice: " + stockAudit.summary());
    assertTrue(
        stock.getCounters().findCounter(TaskCounter.SPILLED_RECORDS).getValue()
            > themis.getCounters().findCounter(TaskCounter.SPILLED_RECORDS).getValue());
  }

  private static int run(Configuration conf, String[] reducers, Path in, Path out) {
    try {
      return ToolRunner.run(
          conf,
          new WordCount(),
          new String[] {reducers[0], reducers[1], in.toString(), out.toString()});
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
