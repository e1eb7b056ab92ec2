package dev.levee.it.sponge.pig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniClusterSettings;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.pig.PigOnMiniCluster;
import dev.levee.it.sponge.SpongeCluster;
import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.SpongeCounters.PerTier;
import dev.levee.sponge.SpongeCounters.PigBag;
import dev.levee.sponge.Tier;
import dev.levee.sponge.pig.SpongeBagFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.JobStats;
import org.apache.pig.tools.pigstats.PigStats;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pig bags spilling into SpongeFiles on YARN, every NodeManager running the sponge aux service: the
 * paper's Spam Quantiles shape (a skewed GROUP whose biggest group holds most of the rows, a
 * holistic UDF sorting the unprojected group in a factory-made sorted bag), plus a nested ORDER BY
 * read by a holistic UDF and a nested DISTINCT, in one reduce with a small heap. Switched on only
 * through the task JVMs' system properties and Pig's bag-type keys, as a user would; the same
 * script on stock Pig is the reference.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class PigBagsOnYarnTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = SpongeCluster.SHARED;

  private static final Logger LOG = LoggerFactory.getLogger(PigBagsOnYarnTest.class);

  private static final Path INPUT = new Path("/it/sponge-pig/pages.tsv");

  /**
   * A small reducer heap, and bags that spill themselves past 2% of it (~2.5 MB of tuples), so the
   * hot group's bags spill many times whatever the GC does; stock gets the same heap and share.
   */
  private static final String TASK_OPTS = "-Xmx128m " + MiniClusterSettings.TASK_JVM_FLAGS;

  private static final String MEMUSAGE = "0.02";

  private static MiniMapReduceCluster cluster;
  private static FileSystem fs;
  private static List<String> stock;

  @BeforeAll
  static void writeInput() throws Exception {
    cluster = CLUSTER.cluster();
    fs = cluster.fileSystem();
    List<String> rows = SpamPages.rows();
    ClusterFiles.writeLines(fs, INPUT, rows);
  }

  @Test
  @Order(1)
  void skewedGroupWithHolisticUdfsSpillsIntoSpongeFilesAndMatchesStock() throws Exception {
    Run sponge = run("sponge", spongeProperties());
    LOG.info("SpongeFiles bags on YARN: {}", sponge.figures());
    assertEquals(stock(), sponge.output, "SpongeFiles bags give stock Pig's output");
    assertEquals(1 + SpamPages.OTHER_SITES, sponge.output.size());

    assertEquals(0, sponge.counter(PigBag.FALLBACKS.counterName()), "the reducer had its sponge");
    assertEquals(0, sponge.counter(PigBag.LOCAL_FILE_SPILLS.counterName()));
    // Every kind of bag the script uses really spilled, each spill into a SpongeFile.
    assertTrue(sponge.counter(PigBag.spillsOf("default")) >= 3, sponge.figures());
    assertTrue(sponge.counter(PigBag.spillsOf("sorted")) >= 6, sponge.figures());
    assertTrue(sponge.counter(PigBag.spillsOf("distinct")) >= 1, sponge.figures());
    long local = sponge.counter(PigBag.perTier(PerTier.BYTES_WRITTEN, Tier.LOCAL_MEMORY));
    long remote = sponge.counter(PigBag.perTier(PerTier.BYTES_WRITTEN, Tier.REMOTE_MEMORY));
    long disk = sponge.counter(PigBag.perTier(PerTier.BYTES_WRITTEN, Tier.LOCAL_DISK));
    assertTrue(local > 0, "bytes in the reducer's local sponge: " + sponge.figures());
    assertTrue(local + remote + disk > 20L << 20, "the spills' bytes: " + sponge.figures());
    long read =
        sponge.counter(PigBag.perTier(PerTier.BYTES_READ, Tier.LOCAL_MEMORY))
            + sponge.counter(PigBag.perTier(PerTier.BYTES_READ, Tier.REMOTE_MEMORY))
            + sponge.counter(PigBag.perTier(PerTier.BYTES_READ, Tier.LOCAL_DISK));
    assertTrue(read >= local + remote + disk, "every spill was read back: " + sponge.figures());
    // The task freed its chunks: no pool keeps any after the job.
    SpongeCluster.assertPoolsEmpty(cluster);
  }

  @Test
  @Order(2)
  void aTaskWithoutAUsableSpongeSpillsToLocalFilesAsStockAndMatchesStock() throws Exception {
    Properties p = spongeProperties();
    // SpongeFiles do not encrypt chunks, so a job asking for encrypted intermediate data gets no
    // sponge on any node: the bags take the fallback a node without a reachable sponge takes.
    p.setProperty("mapreduce.job.encrypted-intermediate-data", "true");
    Run fallback = run("fallback", p);
    LOG.info("bags without a sponge on YARN: {}", fallback.figures());
    assertEquals(stock(), fallback.output, "the fallback gives stock Pig's output");
    assertEquals(1, fallback.counter(PigBag.FALLBACKS.counterName()), fallback.figures());
    assertTrue(fallback.counter(PigBag.LOCAL_FILE_SPILLS.counterName()) >= 10, fallback.figures());
    assertEquals(0, fallback.counter(PigBag.SPILLS.counterName()), fallback.figures());
  }

  /** Stock Pig 0.18 on the same heap: its own factory and cached bags. */
  private static List<String> stock() throws Exception {
    if (stock == null) {
      Properties p = new Properties();
      p.setProperty("mapreduce.reduce.java.opts", TASK_OPTS);
      p.setProperty("pig.cachedbag.memusage", MEMUSAGE);
      stock = run("stock", p).output;
    }
    return stock;
  }

  /** The lines a user adds: the factory for the task JVMs, and factory bags for every operator. */
  private static Properties spongeProperties() {
    String jar =
        SpongeBagFactory.class.getProtectionDomain().getCodeSource().getLocation().toString();
    String factory =
        " -Dpig.data.bag.factory.name="
            + SpongeBagFactory.class.getName()
            + " -Dpig.data.bag.factory.jar="
            + jar;
    Properties p = new Properties();
    p.setProperty("mapreduce.reduce.java.opts", TASK_OPTS + factory);
    p.setProperty("mapreduce.map.java.opts", MiniClusterSettings.TASK_JVM_FLAGS + factory);
    p.setProperty("pig.cachedbag.type", "default");
    p.setProperty("pig.cachedbag.sort.type", "default");
    p.setProperty("pig.cachedbag.distinct.type", "default");
    p.setProperty("pig.cachedbag.memusage", MEMUSAGE);
    return p;
  }

  private record Run(List<String> output, Counters counters) {
    long counter(String name) {
      CounterGroup g = counters.getGroup(SpongeCounters.GROUP);
      return g.findCounter(name, false) == null ? 0 : g.findCounter(name, false).getValue();
    }

    String figures() {
      StringBuilder b = new StringBuilder();
      counters
          .getGroup(SpongeCounters.GROUP)
          .forEach(c -> b.append(c.getName()).append('=').append(c.getValue()).append(' '));
      return b.toString();
    }
  }

  private static Run run(String name, Properties extra) throws Exception {
    Path output = new Path("/it/sponge-pig/" + name);
    Properties p = new Properties();
    p.putAll(extra);
    // The nested ORDER BY and DISTINCT must build bags in every run, not ride on a secondary sort.
    p.setProperty("pig.exec.nosecondarykey", "true");
    PigServer pig = PigOnMiniCluster.start(cluster, p);
    try {
      pig.setBatchOn();
      for (String query : SpamPages.queries(INPUT.toString(), output.toString())) {
        pig.registerQuery(query);
      }
      List<ExecJob> jobs = pig.executeBatch();
      assertEquals(1, jobs.size());
      ExecJob store = jobs.get(0);
      assertEquals(
          ExecJob.JOB_STATUS.COMPLETED, store.getStatus(), name + ": " + store.getException());
      PigStats stats = store.getStatistics();
      assertTrue(stats.isSuccessful(), name + ": " + stats.getErrorMessage());
      assertEquals(1, stats.getNumberJobs(), "one MapReduce job");
      JobStats js = (JobStats) stats.getJobGraph().getSources().get(0);
      Counters counters =
          new Cluster(cluster.clientConf()).getJob(JobID.forName(js.getJobId())).getCounters();
      List<String> lines = new ArrayList<>(ClusterFiles.readOutput(fs, output));
      java.util.Collections.sort(lines);
      return new Run(lines, counters);
    } finally {
      pig.shutdown();
    }
  }
}
