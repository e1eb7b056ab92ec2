package dev.levee.piranha.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.piranha.AbortSignal;
import dev.levee.piranha.Deadline;
import dev.levee.piranha.PiranhaAbortedException;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.transport.Endpoint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rendezvous against a real ZooKeeper server. */
class ZkRendezvousTest {
  @TempDir Path dir;
  private TestingServer zk;
  private Configuration conf;
  private ZkRunTracker runner;
  private final List<ZkRendezvous> open = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    zk = new TestingServer(-1, dir.toFile(), true);
    conf = new Configuration(false);
    conf.set("levee.piranha.zookeeper.quorum", zk.getConnectString());
    conf.set("levee.piranha.zookeeper.session-timeout-ms", "4000");
    runner = new ZkRunTracker(ZkClients.connect(conf), "/levee/piranha", "run-1");
    runner.createAttempt(1);
  }

  @AfterEach
  void stop() throws IOException {
    open.forEach(ZkRendezvous::close);
    runner.close();
    zk.close();
  }

  private ZkRendezvous join(TaskId t, AbortSignal abort) throws IOException {
    ZkRendezvous r = ZkRendezvous.join(ZkClients.connect(conf), runner.layout(1), t, abort);
    open.add(r);
    return r;
  }

  @Test
  void parentsFindTheirChildrenOnceRegistered() throws Exception {
    TaskId parent = new TaskId(0, 0);
    TaskId c0 = new TaskId(1, 0);
    TaskId c1 = new TaskId(1, 1);
    ZkRendezvous p = join(parent, new AbortSignal());
    join(c0, new AbortSignal()).register(new Registration(new Endpoint("h0", 1000), 11, "c0"));
    Thread late =
        new Thread(
            () -> {
              try {
                Thread.sleep(300);
                join(c1, new AbortSignal())
                    .register(new Registration(new Endpoint("h1", 1001), 12, "c1"));
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    late.start();
    Map<TaskId, Endpoint> found =
        p.awaitEndpoints(List.of(c0, c1), Deadline.in(10_000, "children"), () -> {});
    late.join();
    assertEquals(new Endpoint("h1", 1001), found.get(c1));
    assertEquals(12, runner.registrations(1).get(c1).pid());
  }

  @Test
  void waitingForAChildThatNeverComesIsBounded() throws Exception {
    ZkRendezvous p = join(new TaskId(0, 0), new AbortSignal());
    PiranhaAbortedException e =
        assertThrows(
            PiranhaAbortedException.class,
            () ->
                p.awaitEndpoints(
                    List.of(new TaskId(1, 0)),
                    Deadline.in(500, "the children of t0-0 did not all register"),
                    () -> {}));
    assertTrue(
        e.getMessage().contains("within 500 ms") && e.getMessage().contains("t1-0"),
        e.getMessage());
  }

  @Test
  void anAbortReachesEveryTask() throws Exception {
    List<AbortSignal> signals = new ArrayList<>();
    List<ZkRendezvous> tasks = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      AbortSignal s = new AbortSignal();
      signals.add(s);
      ZkRendezvous r = join(new TaskId(0, i), s);
      r.register(new Registration(null, i, ""));
      tasks.add(r);
    }
    tasks.get(3).raiseAbort("t0-3 failed: boom");
    for (AbortSignal s : signals) {
      awaitAbort(s, 10_000);
      assertTrue(s.reason().contains("boom"), s.reason());
    }
    assertTrue(runner.abortReason(1).contains("boom"));
  }

  @Test
  void theRootCauseStandsOverThePeerThatSawItsSocketClose() throws Exception {
    // Aborting locally closes the failing task's sockets; the peer streaming to it then fails at
    // once and raises its own abort. Here that reaction is synchronous, as fast as it can be.
    AbortSignal failing = new AbortSignal();
    ZkRendezvous root = join(new TaskId(1, 1), failing);
    root.register(new Registration(null, 1, ""));
    ZkRendezvous peer = join(new TaskId(0, 1), new AbortSignal());
    peer.register(new Registration(null, 2, ""));
    failing.onAbort(
        why ->
            peer.raiseAbort("t0-1 failed: t1-1 closed the connection while t0-1 waited for ACK"));
    root.raiseAbort("t1-1 failed: IOException: injected failure");
    assertTrue(
        runner.abortReason(1).startsWith("t1-1: t1-1 failed: IOException: injected failure"),
        runner.abortReason(1));
  }

  @Test
  void aPeerThatVanishesBeforeItIsDoneAbortsTheRun() throws Exception {
    AbortSignal watcher = new AbortSignal();
    ZkRendezvous w = join(new TaskId(1, 0), watcher);
    w.register(new Registration(new Endpoint("h", 1), 1, ""));
    ZkRendezvous finished = join(new TaskId(0, 0), new AbortSignal());
    finished.register(new Registration(null, 2, ""));
    finished.markDone("start=1\n");
    finished.close();
    ZkRendezvous dying = join(new TaskId(0, 1), new AbortSignal());
    dying.register(new Registration(null, 3, ""));
    Thread.sleep(500);
    assertFalse(watcher.aborted(), "a task that recorded itself done may leave");
    dying.close(); // its session ends with its registration, but it never said it was done
    awaitAbort(watcher, 10_000);
    assertTrue(watcher.reason().contains("t0-1 vanished"), watcher.reason());
  }

  @Test
  void aSecondCopyOfATaskCannotRegister() throws Exception {
    join(new TaskId(0, 0), new AbortSignal()).register(new Registration(null, 1, ""));
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                join(new TaskId(0, 0), new AbortSignal()).register(new Registration(null, 2, "")));
    assertTrue(e.getMessage().contains("another copy"), e.getMessage());
  }

  @Test
  void aLostSessionAbortsTheTask() throws Exception {
    AbortSignal s = new AbortSignal();
    join(new TaskId(0, 0), s).register(new Registration(null, 1, ""));
    zk.stop(); // longer than the 4 s session: Curator declares the session lost
    awaitAbort(s, 20_000);
    assertTrue(s.reason().contains("session of task t0-0 was lost"), s.reason());
    zk.restart();
  }

  @Test
  void joiningAnAttemptThatDoesNotExistFails() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                ZkRendezvous.join(
                    ZkClients.connect(conf),
                    runner.layout(7),
                    new TaskId(0, 0),
                    new AbortSignal()));
    assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
  }

  private static void awaitAbort(AbortSignal s, long ms) throws InterruptedException {
    long end = System.currentTimeMillis() + ms;
    while (!s.aborted() && System.currentTimeMillis() < end) {
      s.sleep(20);
    }
    assertTrue(s.aborted(), "aborted within " + ms + " ms");
  }
}
