package dev.levee.it.piranha;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import dev.levee.it.zk.ZooKeeperEnsemble;
import dev.levee.it.zk.ZooKeeperServers;
import dev.levee.piranha.PiranhaCounters;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.rendezvous.Registration;
import dev.levee.piranha.runner.CapacityException;
import dev.levee.piranha.runner.PiranhaRunException;
import dev.levee.piranha.runner.PiranhaRunner;
import dev.levee.piranha.runner.RunResult;
import dev.levee.piranha.transport.ChannelAuth;
import dev.levee.piranha.transport.Endpoint;
import dev.levee.piranha.transport.PushClient;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Faults on the real thing: a task killed with SIGKILL, a kill in every attempt, a ZooKeeper
 * session lost, a ZooKeeper leader lost, and a DAG larger than the cluster.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class PiranhaFaultsOnYarnTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  private static final Path BASE = new Path("/it/piranha/faults");
  private static final Path IN = new Path(BASE, "in");
  private static final Path GATES = new Path(BASE, "gates");
  private static final String COUNT_0 = "t1-0"; // the first task of the intermediate stage
  private static TestingServer zk;
  private static List<String> stock;
  private static final ExecutorService RUNNER = Executors.newSingleThreadExecutor();

  @BeforeAll
  static void setUp() throws Exception {
    zk =
        ZooKeeperServers.standalone(
            java.nio.file.Path.of("target", "zookeeper-piranha-faults"), 500);
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    TopWordsDags.writeInput(cluster.fileSystem(), IN, 2, 1000, 5);
    stock = TopWordsDags.stockTopWords(cluster.clientConf(), IN, new Path(BASE, "stock"), 2);
  }

  @AfterAll
  static void tearDown() throws Exception {
    RUNNER.shutdownNow();
    if (zk != null) {
      zk.close();
    }
  }

  private static Configuration conf(String quorum, String root, String gatedAttempts)
      throws Exception {
    Configuration c = CLUSTER.cluster().clientConf();
    c.set("levee.piranha.zookeeper.quorum", quorum);
    c.set("levee.piranha.zookeeper.root", root);
    c.set("levee.piranha.zookeeper.session-timeout-ms", "4000");
    c.set("levee.piranha.abort.grace-ms", "500");
    c.set(GatedWordMapper.GATED_ATTEMPTS, gatedAttempts);
    c.set(GatedWordMapper.GATE_DIR, new Path(GATES, root.replace('/', '_')).toString());
    c.setBoolean("levee.piranha.capacity.check", false);
    return c;
  }

  private static Configuration bigTasks(Configuration c) {
    c.setBoolean("levee.piranha.capacity.check", true);
    c.setInt("mapreduce.map.memory.mb", 1024);
    return c;
  }

  private static void openGate(Configuration c, int attempt) throws Exception {
    Path gate = new Path(c.get(GatedWordMapper.GATE_DIR), "attempt-" + attempt);
    CLUSTER.cluster().fileSystem().create(gate, true).close();
  }

  private static void kill9(long pid) throws Exception {
    assertTrue(ProcessHandle.of(pid).isPresent(), "task process " + pid + " runs before the kill");
    Process kill = new ProcessBuilder("kill", "-9", Long.toString(pid)).inheritIO().start();
    assertEquals(0, kill.waitFor(), "kill -9 " + pid);
    Optional<ProcessHandle> h = ProcessHandle.of(pid);
    long deadline = System.currentTimeMillis() + 10_000;
    while (h.isPresent() && h.get().isAlive() && System.currentTimeMillis() < deadline) {
      Thread.sleep(20);
    }
    assertFalse(h.isPresent() && h.get().isAlive(), "task process " + pid + " is dead");
  }

  /** Also the fourth configuration of the paper: redundant stages kept, no materialization. */
  @Test
  void aTaskKilledMidRunIsRecoveredByRerunningTheWholeJob() throws Exception {
    Configuration c = conf(zk.getConnectString(), "/it/kill", "1");
    c.setBoolean("levee.piranha.plan.eliminate-redundant-stages", false);
    Path out = new Path(BASE, "kill-once");
    Future<RunResult> run =
        RUNNER.submit(() -> new PiranhaRunner(c).run(TopWordsDags.dag("kill-once", IN, out, 2)));
    try (RunProbe probe = new RunProbe(zk.getConnectString(), "/it/kill")) {
      Registration victim = probe.awaitTask(1, COUNT_0, 120_000);
      kill9(victim.pid());
      openGate(c, 1);
    }
    RunResult r = run.get(5, TimeUnit.MINUTES);
    assertEquals(RunResult.Mode.PIRANHA, r.mode());
    assertEquals(2, r.attempts(), "the first attempt died with its task");
    assertEquals(
        2,
        r.counters().findCounter(PiranhaCounters.GROUP, PiranhaCounters.ATTEMPT).getValue(),
        "the counters say which attempt produced the output");
    assertEquals(stock, ClusterFiles.readOutput(CLUSTER.cluster().fileSystem(), out));
    assertEquals(4, r.stageNames().size(), "scan, count, invert, top: the redundant stage kept");
  }

  @Test
  void aKillInEveryAttemptFailsCleanlyWithoutOutput() throws Exception {
    Configuration c = conf(zk.getConnectString(), "/it/killall", "1,2");
    c.set("levee.piranha.job.max-attempts", "2");
    c.set("levee.piranha.job.on-exhausted", "fail");
    Path out = new Path(BASE, "kill-always");
    Future<RunResult> run =
        RUNNER.submit(() -> new PiranhaRunner(c).run(TopWordsDags.dag("kill-always", IN, out, 2)));
    try (RunProbe probe = new RunProbe(zk.getConnectString(), "/it/killall")) {
      for (int attempt = 1; attempt <= 2; attempt++) {
        Registration victim = probe.awaitTask(attempt, COUNT_0, 120_000);
        kill9(victim.pid());
        openGate(c, attempt);
      }
    }
    Exception e = assertThrows(Exception.class, () -> run.get(5, TimeUnit.MINUTES));
    PiranhaRunException failure = (PiranhaRunException) e.getCause();
    assertEquals(2, failure.causes().size(), failure.getMessage());
    FileSystem fs = CLUSTER.cluster().fileSystem();
    assertFalse(fs.exists(out), "no partial output, not even an empty directory");
  }

  @Test
  void aLostZooKeeperSessionAbortsTheRun() throws Exception {
    Configuration c = conf(zk.getConnectString(), "/it/session", "1");
    c.set("levee.piranha.job.max-attempts", "1");
    c.set("levee.piranha.job.on-exhausted", "fail");
    Path out = new Path(BASE, "session");
    Future<RunResult> run =
        RUNNER.submit(() -> new PiranhaRunner(c).run(TopWordsDags.dag("session", IN, out, 2)));
    try (RunProbe probe = new RunProbe(zk.getConnectString(), "/it/session")) {
      probe.awaitRegistered(1, 5, 120_000);
    }
    zk.stop(); // every task's session expires while the initial tasks wait at their gate
    Thread.sleep(8_000);
    zk.restart();
    openGate(c, 1);
    Exception e = assertThrows(Exception.class, () -> run.get(5, TimeUnit.MINUTES));
    PiranhaRunException failure = (PiranhaRunException) e.getCause();
    assertTrue(failure.getMessage().contains("ZooKeeper session of task"), failure.getMessage());
    assertFalse(CLUSTER.cluster().fileSystem().exists(out));
  }

  @Test
  void aZooKeeperLeaderFailoverDuringRendezvousDoesNotCostARerun() throws Exception {
    try (ZooKeeperEnsemble ensemble =
        ZooKeeperServers.ensemble(
            3, java.nio.file.Path.of("target", "zookeeper-piranha-ensemble"))) {
      Configuration c = conf(ensemble.connectString(), "/it/failover", "1");
      // Longer than the election: a loaded 2-core CI machine once took 24 s to elect the next
      // leader, and the sessions (then capped at 20 s) expired; the ensemble now grants up to 120
      // s.
      c.set("levee.piranha.zookeeper.session-timeout-ms", "60000");
      // Also the paper's configuration with redundant stages fused and no materialization.
      c.setBoolean("levee.piranha.plan.eliminate-redundant-stages", true);
      c.set("levee.piranha.checkpoint", "none");
      Path out = new Path(BASE, "failover");
      Future<RunResult> run =
          RUNNER.submit(() -> new PiranhaRunner(c).run(TopWordsDags.dag("failover", IN, out, 2)));
      try (RunProbe probe = new RunProbe(ensemble.connectString(), "/it/failover")) {
        probe.awaitRegistered(1, 5, 120_000);
        hostilePeersAreRefused(probe);
      }
      InstanceSpec old = ensemble.killLeader();
      long deadline = System.currentTimeMillis() + 60_000;
      InstanceSpec leader = null;
      while (leader == null && System.currentTimeMillis() < deadline) {
        try {
          leader = ensemble.leader();
        } catch (java.util.NoSuchElementException electing) {
          Thread.sleep(100);
        }
      }
      assertNotEquals(old, leader, "a new leader was elected");
      openGate(c, 1);
      RunResult r = run.get(5, TimeUnit.MINUTES);
      assertEquals(RunResult.Mode.PIRANHA, r.mode());
      assertEquals(1, r.attempts(), "the sessions survived the election");
      assertEquals(stock, ClusterFiles.readOutput(CLUSTER.cluster().fileSystem(), out));
      assertEquals(3, r.stageNames().size(), "scan, count+invert fused, top: " + r.stageNames());
    }
  }

  /**
   * Garbage instead of a handshake, then a handshake with the wrong secret, against a listening
   * task of the run: both refused, and (as the caller checks) the run still completes in its first
   * attempt, so the listener survived and nothing was aborted.
   */
  private static void hostilePeersAreRefused(RunProbe probe) throws Exception {
    Registration child = probe.awaitTask(1, COUNT_0, 60_000);
    Endpoint at = child.endpoint();
    try (Socket s = new Socket(at.host(), at.port())) {
      s.setSoTimeout(30_000);
      byte[] junk = new byte[4096];
      new Random(7).nextBytes(junk);
      OutputStream out = s.getOutputStream();
      out.write(junk);
      out.flush();
      s.getInputStream().readAllBytes(); // the child closes the connection
    } catch (java.net.SocketException reset) {
      // refused by a reset: also a refusal
    }
    byte[] wrongSecret = new byte[32];
    new Random(11).nextBytes(wrongSecret);
    ChannelAuth wrong = new ChannelAuth(wrongSecret, probe.runId(), 1);
    IOException refused =
        assertThrows(
            IOException.class,
            () ->
                PushClient.connect(at, wrong, new TaskId(0, 0), new TaskId(1, 0), 30_000, 1 << 16));
    assertTrue(refused.getMessage().contains("HMAC mismatch"), refused.getMessage());
  }

  @Test
  void aDagLargerThanTheClusterFailsWithTheFiguresOrFallsBack() throws Exception {
    Configuration c = bigTasks(conf(zk.getConnectString(), "/it/capacity", ""));
    ClusterIdle.await(c, 60_000);
    // With 1 GB tasks the two 2 GB NodeManagers hold the AM and 3 tasks; the DAG has 2 + 2.
    c.set("levee.piranha.capacity.policy", "fail");
    CapacityException e =
        assertThrows(
            CapacityException.class,
            () ->
                new PiranhaRunner(c)
                    .run(TopWordsDags.wordCount("too-big", IN, new Path(BASE, "too-big"), 2)));
    assertTrue(e.getMessage().contains("needs 5 containers at once"), e.getMessage());
    assertTrue(e.getMessage().contains("4 tasks of 1024 MB"), e.getMessage());
    assertTrue(e.getMessage().contains("room for 3 such tasks"), e.getMessage());

    Configuration fallback = bigTasks(conf(zk.getConnectString(), "/it/capacity", ""));
    Path out = new Path(BASE, "fallback");
    RunResult r = new PiranhaRunner(fallback).run(TopWordsDags.wordCount("too-big", IN, out, 2));
    assertEquals(RunResult.Mode.CHAINED_MAPREDUCE, r.mode());
    assertTrue(r.fallbackReason().contains("cannot hold the whole DAG"), r.fallbackReason());
    List<String> expected =
        TopWordsDags.stockWordCount(
            CLUSTER.cluster().clientConf(), IN, new Path(BASE, "stock-wc"), 2);
    assertEquals(expected, ClusterFiles.readOutput(CLUSTER.cluster().fileSystem(), out));
  }
}
