package dev.levee.sponge.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A task's ZooKeeper session for the tracker's list opens at the first read, against a real
 * ZooKeeper server: never for a task that does not read, once for one that does, closed with the
 * task's sponge, and a quorum that does not answer fails the first read after the connect timeout.
 */
@Timeout(120)
class LazyTrackerListTest {
  private static final SpongeZnodes ZNODES = new SpongeZnodes("/levee/sponge-lazy");
  private static TestingServer zk;

  @BeforeAll
  static void start() throws Exception {
    zk = new TestingServer(true);
    try (CuratorFramework writer =
        CuratorFrameworkFactory.newClient(zk.getConnectString(), new RetryOneTime(200))) {
      writer.start();
      writer
          .create()
          .creatingParentsIfNeeded()
          .forPath(
              ZNODES.freeServers(),
              ServerListCodec.encode(
                  1L,
                  "tracker-1",
                  List.of(
                      new ServerListEntry(new SpongeServerAddress("10.0.0.7", 7070, null), 5, 8))));
    }
  }

  @AfterAll
  static void stop() throws IOException {
    zk.close();
  }

  /** Makes sessions to {@code quorum} and keeps each, to look at afterwards. */
  private static final class Sessions implements Supplier<CuratorFramework> {
    final List<CuratorFramework> made = new ArrayList<>();
    private final String quorum;

    Sessions(String quorum) {
      this.quorum = quorum;
    }

    @Override
    public CuratorFramework get() {
      CuratorFramework c =
          CuratorFrameworkFactory.builder()
              .connectString(quorum)
              .connectionTimeoutMs(300)
              .sessionTimeoutMs(4000)
              .retryPolicy(new RetryOneTime(100))
              .build();
      made.add(c);
      return c;
    }
  }

  @Test
  void aTaskThatNeverReadsTheListOpensNoSession() {
    Sessions sessions = new Sessions(zk.getConnectString());
    LazyTrackerList list = new LazyTrackerList(sessions, ZNODES, 5_000);
    list.close();
    assertFalse(list.connected());
    assertEquals(0, sessions.made.size(), "no ZooKeeper client was even built");
  }

  @Test
  void theFirstReadConnectsOnceAndTheSessionClosesWithTheList() throws IOException {
    Sessions sessions = new Sessions(zk.getConnectString());
    LazyTrackerList list = new LazyTrackerList(sessions, ZNODES, 5_000);
    List<ServerListEntry> servers = list.serversWithFreeChunks();
    assertEquals(1, servers.size());
    assertEquals(7070, servers.get(0).address().port());
    assertEquals(5, servers.get(0).freeChunks());
    list.serversWithFreeChunks();
    assertTrue(list.connected());
    assertEquals(1, sessions.made.size(), "one session for every read");
    assertEquals(CuratorFrameworkState.STARTED, sessions.made.get(0).getState());
    list.close();
    assertEquals(CuratorFrameworkState.STOPPED, sessions.made.get(0).getState());
    assertThrows(IOException.class, list::serversWithFreeChunks, "closed");
  }

  @Test
  void aQuorumThatDoesNotAnswerFailsTheFirstReadAndLeavesNoClientRunning() throws IOException {
    int deadPort;
    try (ServerSocket s = new ServerSocket(0)) {
      deadPort = s.getLocalPort();
    }
    Sessions sessions = new Sessions("127.0.0.1:" + deadPort);
    LazyTrackerList list = new LazyTrackerList(sessions, ZNODES, 300);
    IOException e = assertThrows(IOException.class, list::serversWithFreeChunks);
    assertTrue(e.getMessage().contains("no ZooKeeper connection within 300 ms"), e.getMessage());
    assertFalse(list.connected());
    assertEquals(CuratorFrameworkState.STOPPED, sessions.made.get(0).getState());
    // Behind the guard the failure turns remote memory off, with no further wait.
    GuardedServerList guarded = new GuardedServerList(list, "test tracker");
    assertEquals(List.of(), guarded.serversWithFreeChunks());
    assertTrue(guarded.trackerUnreachable());
    list.close();
  }
}
