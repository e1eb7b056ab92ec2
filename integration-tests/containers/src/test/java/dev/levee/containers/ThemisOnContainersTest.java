package dev.levee.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Themis on a cluster of containers, switched on per job as its sample (mapred-site.themis.xml)
 * tells an operator: Hadoop's example WordCount with its combiner and two reducers, whose reducers
 * fetch Themis' unsorted, per-partition map outputs from the other NodeManager containers through
 * the nodes' shuffle handler; the output equals stock Hadoop's on the same cluster, and Themis'
 * counters show each map wrote its output once, sorted by the combiner.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ThemisOnContainersTest {
  static final String THEMIS = "Levee Themis";
  static final String JOBS = "org.apache.hadoop.mapreduce.JobCounter";

  /** Input files of each WordCount, one map each. */
  static final long FILES = 3;

  @RegisterExtension static final SharedContainerCluster CLUSTER = new SharedContainerCluster();

  private static String themisJob() {
    return TierJobs.themis(CLUSTER.cluster());
  }

  @Test
  void wordCountOnThemisAcrossNodesEqualsStock() throws Exception {
    // Both jobs at once (the cluster holds two), each on its own copy of the same text.
    CompletableFuture<JobRun> stock =
        CompletableFuture.supplyAsync(() -> wordCount("wc-stock", ClusterConf.STOCK_JOB));
    JobRun themis = wordCount("wc-themis", themisJob());
    JobRun stockRun = stock.get(8, TimeUnit.MINUTES);
    assertTrue(stockRun.succeeded(), "stock WordCount failed: " + stockRun.tail());
    assertTrue(themis.succeeded(), "Themis WordCount failed: " + themis.tail());
    System.err.printf(
        "wordcount: stock %s; themis %s; themis map outputs sorted %d, unsorted %d, fetched %d B;"
            + " map attempts launched %d, killed %d, failed %d%n",
        stockRun.output(),
        themis.output(),
        themis.counter(THEMIS, "map.outputs.sorted"),
        themis.counter(THEMIS, "map.outputs.unsorted"),
        themis.counter(THEMIS, "reduce.fetched.bytes"),
        themis.counter(JOBS, "TOTAL_LAUNCHED_MAPS"),
        themis.counter(JOBS, "NUM_KILLED_MAPS"),
        themis.counter(JOBS, "NUM_FAILED_MAPS"));
    assertEquals(stockRun.output(), themis.output(), "Themis' output equals stock's");
    // One map per input file. Job counters sum the attempts that succeeded, so Themis' counter is
    // compared with the maps, not with attempt counts: CI runs saw 4 attempts launched for 3 maps,
    // and 3 launched with 1 killed (a speculative attempt killed before it launched).
    assertEquals(
        FILES,
        themis.counter(THEMIS, "map.outputs.sorted"),
        "each map wrote its output once, sorted by the combiner, through Themis' collector;"
            + " first failed attempt: "
            + themis.firstTaskFailure());
    assertTrue(
        themis.counter(THEMIS, "reduce.fetched.bytes") > 0, "the reducers ran Themis' shuffle");
    assertEquals(0, stockRun.counter(THEMIS, "map.outputs.sorted"), "stock ran no Themis code");
  }

  /**
   * Themis' headline workload, Hadoop's TeraSort (the examples' input format, sampled partitions
   * and total-order partitioner; {@code jobs.TeraSortRun}), 60,000 rows (6 MB) in three maps and
   * two reducers on the three NodeManager containers: the output is stock's byte for byte, in
   * order, and each map wrote its output once, unsorted (TeraSort has no combiner).
   */
  @Test
  void teraSortOnThemisAcrossNodesWritesStocksBytesInOrder() {
    // In turn: the first run generates the input both sort.
    JobRun stock = teraSort("ts-stock", ClusterConf.STOCK_JOB);
    assertTrue(stock.succeeded(), "stock TeraSort failed: " + stock.tail());
    JobRun themis = teraSort("ts-themis", themisJob());
    assertTrue(themis.succeeded(), "Themis TeraSort failed: " + themis.tail());
    System.err.printf(
        "terasort: stock %s; themis %s; themis map outputs unsorted %d, sorted %d, fetched %d B%n",
        stock.output(),
        themis.output(),
        themis.counter(THEMIS, "map.outputs.unsorted"),
        themis.counter(THEMIS, "map.outputs.sorted"),
        themis.counter(THEMIS, "reduce.fetched.bytes"));
    assertEquals(stock.output(), themis.output(), "Themis wrote stock's bytes, in stock's order");
    assertEquals(
        FILES,
        themis.counter(THEMIS, "map.outputs.unsorted"),
        "each map wrote its output once, unsorted, through Themis' collector; first failed"
            + " attempt: "
            + themis.firstTaskFailure());
    assertTrue(
        themis.counter(THEMIS, "reduce.fetched.bytes") >= 6_000_000,
        "Themis' reducers fetched every row");
    assertEquals(0, stock.counter(THEMIS, "map.outputs.unsorted"), "stock ran no Themis code");
  }

  private static JobRun teraSort(String name, String options) {
    return TierJobs.clientJob(CLUSTER.cluster(), "TeraSortRun", name, options, "/terasort 60000 2");
  }

  private static JobRun wordCount(String name, String options) {
    return TierJobs.wordCount(CLUSTER.cluster(), name, options, FILES);
  }
}
