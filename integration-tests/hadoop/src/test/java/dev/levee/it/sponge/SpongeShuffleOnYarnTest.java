package dev.levee.it.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.JobClasspath;
import dev.levee.it.hadoop.MiniClusterSettings;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.Tier;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.hadoop.SpongeShuffle;
import dev.levee.sponge.server.SpongeAuxService;
import dev.levee.sponge.server.SpongeNodeDescriptor;
import dev.levee.sponge.server.SpongeServerMetricsMBean;
import dev.levee.sponge.server.SpongeService;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.ToLongFunction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.util.GenericOptionsParser;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
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
 * SpongeFiles on YARN ({@link SpongeCluster}: three NodeManagers, each running the sponge aux
 * service): a skewed job whose single reducer shuffles 2.5x its heap.
 *
 * <p>The fault test stops one NodeManager's sponge aux service while the reducer holds chunks on
 * it: the server's sockets close and it stops answering, which is what its clients see when a
 * sponge server process dies (the mini cluster's NodeManagers share the test JVM, so there is no
 * process to kill). It runs last, and this class runs last on the shared cluster (its {@code
 * Order}), because that NodeManager has no sponge afterwards.
 */
@Order(Integer.MAX_VALUE)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SpongeShuffleOnYarnTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = SpongeCluster.SHARED;

  private static final Logger LOG = LoggerFactory.getLogger(SpongeShuffleOnYarnTest.class);
  private static final int NODE_MANAGERS = SpongeCluster.NODE_MANAGERS;
  private static final int POOL_CHUNKS = SpongeCluster.POOL_CHUNKS;
  private static final int CHUNK = SpongeCluster.CHUNK;
  private static final int MAPS = 4;
  private static final int VALUE_BYTES = 1_000;

  /** 40 MB of map output per map, 160 MB into a reducer with a 64 MB heap. */
  private static final long RECORDS_PER_MAP = 40_000;

  private static final String REDUCE_OPTS = "-Xmx64m " + MiniClusterSettings.TASK_JVM_FLAGS;
  private static final String GROUP = SpongeCounters.GROUP;

  private static MiniMapReduceCluster cluster;
  private static FileSystem fs;
  private static final org.apache.hadoop.fs.Path INPUT =
      new org.apache.hadoop.fs.Path("/it/sponge/in");
  private static List<String> stockOutput;

  @BeforeAll
  static void writeInput() throws Exception {
    cluster = CLUSTER.cluster();
    fs = cluster.fileSystem();
    SkewedShuffleJob.writeInput(fs, INPUT, MAPS);
  }

  @Test
  @Order(1)
  void everyNodeManagerPublishesItsOwnSponge() throws Exception {
    Set<Integer> ports = new HashSet<>();
    Set<Path> pools = new HashSet<>();
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      SpongeService node = sponge(nm).node();
      assertNotNull(node, "sponge of NodeManager " + nm);
      ports.add(node.address().port());
      pools.add(node.config().poolDir());
      for (String dir :
          cluster.nodeManager(nm).getConfig().getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)) {
        SpongeNodeDescriptor d =
            SpongeNodeDescriptor.readFrom(SpongeNodeDescriptor.in(Path.of(dir)));
        assertEquals(node.address().port(), d.port(), "descriptor in " + dir);
        assertEquals(node.config().poolDir(), d.poolDir(), "descriptor in " + dir);
      }
    }
    assertEquals(NODE_MANAGERS, ports.size(), "one port per NodeManager: " + ports);
    assertEquals(NODE_MANAGERS, pools.size(), "one pool per NodeManager: " + pools);
  }

  @Test
  @Order(2)
  void skewedReducerSpillsToLocalThenRemoteSpongesThenDiskAndMatchesStock() throws Exception {
    List<String> stock = stockOutput();
    long[] bytesInBefore = serverBytesIn();
    long grantedBefore = serversTotal(SpongeServerMetricsMBean::getSecretsGranted);
    long authFailuresBefore = serversTotal(SpongeServerMetricsMBean::getAuthenticationFailures);
    PoolSampler sampler = PoolSampler.start();

    Job job = spongeJob("sponge-skewed");
    assertTrue(run(job), "sponge job failed: " + job.getStatus().getFailureInfo());
    sampler.stop();

    assertEquals(
        stock,
        ClusterFiles.readOutput(fs, FileOutputFormat.getOutputPath(job)),
        "SpongeFiles output equals stock");
    Counters c = job.getCounters();
    assertEquals(
        0,
        sponge(c, SpongeCounters.Counter.SHUFFLE_FALLBACKS.counterName()),
        "no fallback to stock spilling");
    assertEquals(
        POOL_CHUNKS,
        sponge(c, SpongeCounters.PerTier.CHUNKS_WRITTEN.of(Tier.LOCAL_MEMORY)),
        "the local pool filled up, and no more");
    assertEquals(
        (long) POOL_CHUNKS * CHUNK,
        sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY)));
    long remoteBytes = sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.REMOTE_MEMORY));
    assertEquals(
        2L * POOL_CHUNKS * CHUNK, remoteBytes, "both other sponges filled up with remote chunks");
    assertTrue(
        sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_DISK)) > 0,
        "the rest went to local disk");
    assertEquals(
        0,
        sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.DFS)),
        "local disk had room: nothing on the DFS");

    // Where the remote chunks landed: the servers' own byte counts, and what their pools held
    // during the job.
    long[] bytesIn = serverBytesIn();
    long landed = 0;
    List<Integer> receivers = new ArrayList<>();
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      long delta = bytesIn[nm] - bytesInBefore[nm];
      landed += delta;
      if (delta > 0) {
        receivers.add(nm);
        assertEquals(
            POOL_CHUNKS, sampler.maxRemoteHeld(nm), "NodeManager " + nm + " held remote chunks");
      }
    }
    assertEquals(
        remoteBytes, landed, "bytes the reducer counted as remote = bytes other servers received");
    assertEquals(
        NODE_MANAGERS - 1, receivers.size(), "every NodeManager but the reducer's: " + receivers);
    int reducerNode = reducerNodeOf(receivers);
    assertEquals(
        0, sampler.maxRemoteHeld(reducerNode), "the reducer's own node holds no remote chunks");
    // The cluster requires authentication: the reducer proved its job's secret to its node's
    // server and stored on the others with the cluster-derived secret that server granted.
    assertEquals(
        1,
        serversTotal(SpongeServerMetricsMBean::getSecretsGranted) - grantedBefore,
        "the reducer's node granted it the derived secret");
    assertEquals(
        authFailuresBefore,
        serversTotal(SpongeServerMetricsMBean::getAuthenticationFailures),
        "every connection authenticated");
    assertEquals(
        POOL_CHUNKS, sampler.maxUsed(reducerNode), "the reducer's node filled its pool locally");

    assertPoolsEmpty();
  }

  /**
   * Issue 13, item 2: on a secure cluster a task runs as the job's user and may not map its node's
   * pool. With {@code levee.sponge.local.access=server} (what {@code auto} falls back to there) the
   * same skewed reducer fills its node's pool through its own server, authenticated with the job
   * token the NodeManager gave the aux service, then the other nodes' memory, then disk.
   */
  @Test
  @Order(3)
  void aReduceThatMayNotMapThePoolFillsItsNodesMemoryThroughItsServer() throws Exception {
    List<String> stock = stockOutput();
    long[] bytesInBefore = serverBytesIn();
    Job job = spongeJob("sponge-via-server");
    job.getConfiguration().set(SpongeConf.LOCAL_ACCESS.name(), "server");
    assertTrue(run(job), "sponge job failed: " + job.getStatus().getFailureInfo());

    assertEquals(
        stock,
        ClusterFiles.readOutput(fs, FileOutputFormat.getOutputPath(job)),
        "SpongeFiles output equals stock");
    Counters c = job.getCounters();
    assertEquals(0, sponge(c, SpongeCounters.Counter.SHUFFLE_FALLBACKS.counterName()));
    assertEquals(
        0,
        sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY)),
        "the reduce mapped no pool");
    long viaServer = sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_SERVER));
    assertEquals(
        (long) POOL_CHUNKS * CHUNK, viaServer, "its node's pool filled up through its server");
    long remoteBytes = sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.REMOTE_MEMORY));
    assertEquals(2L * POOL_CHUNKS * CHUNK, remoteBytes, "then both other sponges");
    assertTrue(sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_DISK)) > 0);

    long[] bytesIn = serverBytesIn();
    long landed = 0;
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      long delta = bytesIn[nm] - bytesInBefore[nm];
      landed += delta;
      assertEquals(
          (long) POOL_CHUNKS * CHUNK, delta, "NodeManager " + nm + "'s server took a full pool");
    }
    assertEquals(viaServer + remoteBytes, landed, "every node's memory went through its server");
    assertPoolsEmpty();
  }

  /**
   * The path a real cluster takes: the containers get no test classpath (the mini cluster otherwise
   * hands them the test JVM's), only Hadoop's own jars as mapreduce.application.classpath, the job
   * jar, and the packaged spongefiles-hadoop jar through -libjars.
   */
  @Test
  @Order(4)
  void pluginReachesTheTasksThroughLibjarsAsOnARealCluster() throws Exception {
    List<String> stock = stockOutput();
    JobClasspath classpath = JobClasspath.fromTestJvm("spongefiles-hadoop");
    Configuration conf = cluster.clientConf();
    conf.setBoolean(YarnConfiguration.IS_MINI_YARN_CLUSTER, false);
    conf.set(MRJobConfig.MAPREDUCE_APPLICATION_CLASSPATH, String.join(",", classpath.framework()));
    conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SpongeShuffle.class.getName());
    String[] rest =
        new GenericOptionsParser(conf, new String[] {"-libjars", classpath.pluginJar().toString()})
            .getRemainingArgs();
    assertEquals(0, rest.length);
    Job job = newJob(conf, "sponge-libjars");
    job.setJar(
        classpath
            .writeJobJar(Path.of("target", "it-sponge-job.jar"), SkewedShuffleJob.class)
            .toString());

    assertTrue(run(job), "job failed: " + job.getStatus().getFailureInfo());
    assertEquals(
        stock,
        ClusterFiles.readOutput(fs, FileOutputFormat.getOutputPath(job)),
        "output equals stock");
    Counters c = job.getCounters();
    assertEquals(
        0,
        sponge(c, SpongeCounters.Counter.SHUFFLE_FALLBACKS.counterName()),
        "the plugin found its node's sponge");
    assertTrue(
        sponge(c, SpongeCounters.PerTier.BYTES_WRITTEN.of(Tier.LOCAL_MEMORY)) > 0,
        "the plugin loaded from -libjars spilled into the sponge");
    assertEquals(
        1,
        c.findCounter(SkewedShuffleJob.CLASSPATH_GROUP, SkewedShuffleJob.PLUGIN_LOCALIZED)
            .getValue(),
        "the reducer loaded SpongeShuffle from the jar -libjars shipped");
    assertEquals(
        1,
        c.findCounter(SkewedShuffleJob.CLASSPATH_GROUP, SkewedShuffleJob.JOB_LOCALIZED).getValue(),
        "the reducer loaded the job's classes from the job jar");
    assertPoolsEmpty();
  }

  @Test
  @Order(5)
  void losingASpongeServerThatHoldsChunksFailsTheAttemptAndTheRerunIsCorrect() throws Exception {
    List<String> stock = stockOutput();
    // The first reduce attempt waits, its shuffle done and its spilled runs in place, until the
    // server is gone: without the hold the attempt can read its last remote chunk before the
    // server stops, and then nothing fails (seen once in CI, the job ending 630 ms after the stop).
    org.apache.hadoop.fs.Path hold = new org.apache.hadoop.fs.Path("/it/sponge/hold-server-loss");
    fs.delete(hold, true);
    fs.mkdirs(hold);
    Job job = spongeJob("sponge-server-loss");
    job.getConfiguration().set(SkewedShuffleJob.REDUCE_HOLD_DIR, hold.toString());
    job.submit();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (!job.isComplete()
        && fs.globStatus(new org.apache.hadoop.fs.Path(hold, "ready-*")).length == 0
        && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertTrue(
        fs.globStatus(new org.apache.hadoop.fs.Path(hold, "ready-*")).length > 0,
        "the first reduce attempt never reached its hold; job complete: " + job.isComplete());
    // The server holding the most of the held attempt's remote chunks: the merge has read at most
    // a chunk or two of each run so far.
    int victim = -1;
    int most = 0;
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      int held = sponge(nm).node().metrics().getRemoteChunksHeld();
      if (held > most) {
        most = held;
        victim = nm;
      }
    }
    assertTrue(victim >= 0, "no sponge server held a remote chunk of the held reducer");
    SpongeAuxService killed = sponge(victim);
    int killedPort = killed.node().address().port();
    SpongeServerConfig killedConfig = killed.node().config();
    killed.stop();
    fs.create(new org.apache.hadoop.fs.Path(hold, "release"), true).close();

    assertTrue(run(job), "job failed: " + job.getStatus().getFailureInfo());
    assertEquals(
        stock,
        ClusterFiles.readOutput(fs, FileOutputFormat.getOutputPath(job)),
        "output after the rerun equals stock");
    assertTrue(
        job.getCounters().findCounter(JobCounter.NUM_FAILED_REDUCES).getValue() >= 1,
        "the reduce attempt that read from the lost server failed");
    String diagnostics = failedReduceDiagnostics(job);
    assertTrue(
        diagnostics.contains(":" + killedPort),
        "the failure names the lost server: " + diagnostics);

    // The survivors end empty; the lost server's pool is reclaimed when its server comes back.
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      if (nm != victim) {
        SpongeCluster.awaitPoolEmpty(nm, sponge(nm).node().metrics());
      }
    }
    try (SpongeService restarted = SpongeService.start(killedConfig)) {
      assertEquals(
          restarted.metrics().getChunksTotal(),
          restarted.metrics().getChunksFree(),
          "a restarted server frees the chunks its previous run handed out");
    }
  }

  private static Job spongeJob(String name) throws Exception {
    Configuration conf = cluster.clientConf();
    conf.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SpongeShuffle.class.getName());
    return newJob(conf, name);
  }

  private static synchronized List<String> stockOutput() throws Exception {
    if (stockOutput == null) {
      Job job = newJob(cluster.clientConf(), "stock-skewed");
      assertTrue(run(job), "stock job failed: " + job.getStatus().getFailureInfo());
      stockOutput = ClusterFiles.readOutput(fs, FileOutputFormat.getOutputPath(job));
      assertTrue(stockOutput.size() > 1_000, "stock output has " + stockOutput.size() + " keys");
    }
    return stockOutput;
  }

  private static Job newJob(Configuration conf, String name) throws Exception {
    conf.set(MRJobConfig.REDUCE_JAVA_OPTS, REDUCE_OPTS);
    Job job = Job.getInstance(conf, name);
    return SkewedShuffleJob.configure(
        job,
        INPUT,
        new org.apache.hadoop.fs.Path("/it/sponge/out-" + name),
        RECORDS_PER_MAP,
        VALUE_BYTES);
  }

  /**
   * Runs a job to the end and logs its time and SpongeFiles counters (the figures the report
   * quotes).
   */
  private static boolean run(Job job) throws Exception {
    long start = System.nanoTime();
    boolean ok = job.waitForCompletion(false);
    StringBuilder figures = new StringBuilder();
    if (ok) {
      job.getCounters()
          .getGroup(GROUP)
          .forEach(k -> figures.append(' ').append(k.getName()).append('=').append(k.getValue()));
    }
    LOG.info(
        "job {} {} in {} ms;{}",
        job.getJobName(),
        ok ? "succeeded" : "failed",
        (System.nanoTime() - start) / 1_000_000,
        figures);
    return ok;
  }

  private static long sponge(Counters counters, String name) {
    return counters.findCounter(GROUP, name).getValue();
  }

  private static SpongeAuxService sponge(int nm) {
    return SpongeCluster.sponge(cluster, nm);
  }

  /** {@code metric} summed over every NodeManager's sponge server. */
  private static long serversTotal(ToLongFunction<SpongeServerMetricsMBean> metric) {
    long sum = 0;
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      sum += metric.applyAsLong(sponge(nm).node().metrics());
    }
    return sum;
  }

  private static long[] serverBytesIn() {
    long[] b = new long[NODE_MANAGERS];
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      b[nm] = sponge(nm).node().metrics().getBytesIn();
    }
    return b;
  }

  private static int reducerNodeOf(List<Integer> receivers) {
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      if (!receivers.contains(nm)) {
        return nm;
      }
    }
    throw new AssertionError(
        "every NodeManager received remote chunks, the reducer's own included");
  }

  private static void assertPoolsEmpty() throws InterruptedException {
    SpongeCluster.assertPoolsEmpty(cluster);
  }

  private static String failedReduceDiagnostics(Job job) throws Exception {
    StringBuilder all = new StringBuilder();
    for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1_000)) {
      if (!e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.FAILED) {
        for (String d : job.getTaskDiagnostics(e.getTaskAttemptId())) {
          all.append(d).append('\n');
        }
      }
    }
    return all.toString();
  }

  /**
   * Samples every sponge server's pool while a job runs: what the servers held, not only what the
   * task says.
   */
  private static final class PoolSampler {
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AtomicIntegerArray maxRemoteHeld = new AtomicIntegerArray(NODE_MANAGERS);
    private final AtomicIntegerArray maxUsed = new AtomicIntegerArray(NODE_MANAGERS);
    private final AtomicInteger samples = new AtomicInteger();

    static PoolSampler start() {
      PoolSampler s = new PoolSampler();
      s.timer.scheduleAtFixedRate(s::sample, 0, 20, TimeUnit.MILLISECONDS);
      return s;
    }

    private void sample() {
      for (int nm = 0; nm < NODE_MANAGERS; nm++) {
        SpongeServerMetricsMBean m = sponge(nm).node().metrics();
        maxUsed.accumulateAndGet(nm, m.getChunksUsed(), Math::max);
        maxRemoteHeld.accumulateAndGet(nm, m.getRemoteChunksHeld(), Math::max);
      }
      samples.incrementAndGet();
    }

    void stop() throws InterruptedException {
      timer.shutdown();
      assertTrue(timer.awaitTermination(5, TimeUnit.SECONDS));
      assertTrue(samples.get() > 10, "pool sampler ran " + samples.get() + " times");
    }

    int maxRemoteHeld(int nm) {
      return maxRemoteHeld.get(nm);
    }

    int maxUsed(int nm) {
      return maxUsed.get(nm);
    }
  }
}
