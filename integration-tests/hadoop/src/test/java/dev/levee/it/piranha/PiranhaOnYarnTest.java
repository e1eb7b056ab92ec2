package dev.levee.it.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.it.zk.ZooKeeperServers;
import dev.levee.piranha.PiranhaCounters;
import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.examples.TopWords;
import dev.levee.piranha.runner.PiranhaRunner;
import dev.levee.piranha.runner.RunResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.util.GenericOptionsParser;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The top-k words query as one Piranha job on YARN (two NodeManagers, HDFS, a real ZooKeeper),
 * under the paper's configurations ({redundant stages kept, fused} x {no materialization,
 * materialization}); each output must equal stock chained MapReduce's on the same data. Here: fused
 * materializing locally, and kept materializing on HDFS. The other two run in {@link
 * PiranhaFaultsOnYarnTest}, against the same oracle, as the runs it disturbs: kept without
 * materialization is rerun after a kill, fused without materialization rides out a ZooKeeper leader
 * failover. That keeps the suite's share of CI time small.
 */
class PiranhaOnYarnTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  private static final Path BASE = new Path("/it/piranha/yarn");
  private static final Path IN = new Path(BASE, "in");
  private static TestingServer zk;
  private static List<String> stock;

  @BeforeAll
  static void setUp() throws Exception {
    zk = ZooKeeperServers.standalone(java.nio.file.Path.of("target", "zookeeper-piranha"));
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    TopWordsDags.writeInput(fs, IN, 2, 2000, 3);
    stock = TopWordsDags.stockTopWords(cluster.clientConf(), IN, new Path(BASE, "stock"), 2);
    assertEquals(TopWordsDags.K, stock.size());
  }

  @AfterAll
  static void tearDown() throws Exception {
    if (zk != null) {
      zk.close();
    }
  }

  private static Configuration conf(boolean fuse, String checkpoint) throws Exception {
    Configuration c = CLUSTER.cluster().clientConf();
    c.set("levee.piranha.zookeeper.quorum", zk.getConnectString());
    c.set("levee.piranha.zookeeper.root", "/it/yarn");
    c.setBoolean("levee.piranha.plan.eliminate-redundant-stages", fuse);
    c.set("levee.piranha.checkpoint", checkpoint);
    c.set("levee.piranha.checkpoint.dfs-dir", "/it/piranha/scratch");
    // The capacity check has its own test; here the previous test's ApplicationMaster, which
    // lingers
    // five seconds after its job, would only make the check fall back.
    c.setBoolean("levee.piranha.capacity.check", false);
    return c;
  }

  private static RunResult runAndCheck(Configuration conf, PiranhaDag dag, Path out, int stages)
      throws Exception {
    RunResult r = new PiranhaRunner(conf).run(dag);
    assertEquals(RunResult.Mode.PIRANHA, r.mode(), "ran as Piranha: " + r.fallbackReason());
    assertEquals(1, r.attempts());
    assertEquals(stages, r.stageNames().size(), r.stageNames().toString());
    FileSystem fs = CLUSTER.cluster().fileSystem();
    assertEquals(stock, ClusterFiles.readOutput(fs, out), "output equals stock chained MapReduce");
    assertTrue(fs.exists(new Path(out, "_SUCCESS")));
    assertEquals(
        List.of("part-r-00000"),
        ClusterFiles.partFiles(fs, out).stream().map(Path::getName).toList(),
        "the terminal task's file is named by its partition");
    Counters c = r.counters();
    assertEquals(1, c.findCounter(PiranhaCounters.GROUP, PiranhaCounters.ATTEMPT).getValue());
    assertEquals(
        stock.size(),
        c.findCounter(PiranhaCounters.GROUP, PiranhaCounters.OUTPUT_RECORDS).getValue(),
        "the terminal stage counts the records it wrote");
    for (int i = 1; i < r.stageNames().size(); i++) {
      String edge = r.stageNames().get(i - 1) + "->" + r.stageNames().get(i);
      long pushed =
          c.findCounter(PiranhaCounters.GROUP, PiranhaCounters.pushedRecords(edge)).getValue();
      assertTrue(pushed > 0, edge + " pushed records");
      assertEquals(
          pushed,
          c.findCounter(PiranhaCounters.GROUP, PiranhaCounters.receivedRecords(edge)).getValue(),
          edge + ": every record pushed was received");
    }
    try (RunProbe probe = new RunProbe(zk.getConnectString(), "/it/yarn")) {
      assertEquals(List.of(), probe.runs(), "the runner deleted its znodes");
    }
    return r;
  }

  /**
   * Fused, materializing to local disk; also the path a real cluster takes: the containers get no
   * test classpath, only Hadoop's jars, the job jar and piranha-dag through -libjars; and the site
   * configuration turns uber mode and speculation on, which Piranha must override.
   */
  @Test
  void fusedMaterializingLocallyShippedWithLibjarsUnderASiteWithUberAndSpeculation()
      throws Exception {
    Configuration conf = conf(true, "local");
    java.nio.file.Path site =
        java.nio.file.Path.of("target", "it-piranha-mapred-site.xml").toAbsolutePath();
    Files.writeString(
        site,
        "<configuration>"
            + "<property><name>mapreduce.job.ubertask.enable</name><value>true</value></property>"
            + "<property><name>mapreduce.map.speculative</name><value>true</value></property>"
            + "</configuration>",
        StandardCharsets.UTF_8);
    conf.unset(MRJobConfig.JOB_UBERTASK_ENABLE); // the cluster fixture's own setting, not a site's
    conf.addResource(new Path(site.toUri()));
    assertTrue(conf.getBoolean(MRJobConfig.JOB_UBERTASK_ENABLE, false));

    PiranhaJobClasspath cp = PiranhaJobClasspath.fromTestJvm();
    conf.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, false);
    conf.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH, String.join(",", cp.framework));
    String[] rest =
        new GenericOptionsParser(conf, new String[] {"-libjars", cp.pluginJar.toString()})
            .getRemainingArgs();
    assertEquals(0, rest.length);
    conf.set(
        MRJobConfig.JAR,
        cp.writeJobJar(java.nio.file.Path.of("target", "it-piranha-job.jar")).toString());

    Path out = new Path(BASE, "fused-local-libjars");
    RunResult r = runAndCheck(conf, TopWordsDags.dag("top-words", IN, out, 2), out, 3);

    Counters c = r.counters();
    long scans = 2;
    assertEquals(
        scans,
        c.findCounter(GatedWordMapper.CLASSPATH_GROUP, GatedWordMapper.PIRANHA_LOCALIZED)
            .getValue(),
        "every scan task loaded Piranha from the jar -libjars shipped");
    assertEquals(
        scans,
        c.findCounter(GatedWordMapper.CLASSPATH_GROUP, GatedWordMapper.JOB_LOCALIZED).getValue(),
        "and its mapper from the job jar");
    Job submitted = new Cluster(conf).getJob(JobID.forName(r.jobIds().get(0)));
    Configuration jc = new Configuration(false);
    jc.addResource(
        CLUSTER.cluster().fileSystem().open(new Path(submitted.getStatus().getJobFile())));
    assertEquals("false", jc.get(MRJobConfig.JOB_UBERTASK_ENABLE), "uber mode overridden");
    assertEquals("false", jc.get(MRJobConfig.MAP_SPECULATIVE), "speculation overridden");
    assertEquals("1", jc.get(MRJobConfig.MAP_MAX_ATTEMPTS));
    assertEquals("1", jc.get(MRJobConfig.MR_AM_MAX_ATTEMPTS));
    assertTrue(
        c.findCounter(PiranhaCounters.GROUP, PiranhaCounters.spills("count")).getValue() > 0,
        "checkpoint=local: every received run went to disk");
  }

  /** A chain of two configured stock jobs, kept MapReduce-shaped, materializing on HDFS. */
  @Test
  void chainOfStockJobsKeptMaterializingOnHdfs() throws Exception {
    Configuration conf = conf(false, "dfs");
    Path out = new Path(BASE, "chain-kept-dfs");
    PiranhaDag dag =
        TopWords.dagFromChain(conf, IN, new Path(BASE, "chain-tmp"), out, 2, TopWordsDags.K);
    runAndCheck(conf, dag, out, 4);
    FileSystem fs = CLUSTER.cluster().fileSystem();
    assertTrue(!fs.exists(new Path(BASE, "chain-tmp")), "nothing was written between the jobs");
    assertTrue(
        !fs.exists(new Path("/it/piranha/scratch"))
            || fs.listStatus(new Path("/it/piranha/scratch")).length == 0,
        "the runner removed its checkpoint files");
  }
}
