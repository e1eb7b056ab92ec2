package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.testing.Await;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Slowloris (issue 13, item 5): peers that trickle one byte at a time, each byte well inside the
 * socket timeout, must neither hold a frame open forever nor take every connection slot.
 */
@Timeout(60)
class SlowPeersTest {
  private static final int SLOTS = 8;
  private static final int PER_PEER = 4;

  /** A whole trickled frame: 64 bytes, one every 200 ms, would take 12 s. */
  private static final int FRAME = TricklingPeers.FRAME_BYTES;

  private Path dir;
  private SpongeService node;
  private SpongeServerAddress server;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("slowpeers");
    Configuration conf = TestNodes.conf(dir, 4);
    conf.set("levee.sponge.server.max-connections", Integer.toString(SLOTS));
    conf.set("levee.sponge.server.max-connections-per-peer", Integer.toString(PER_PEER));
    conf.set("levee.sponge.server.socket-timeout-ms", "5000");
    conf.set("levee.sponge.server.frame-timeout-ms", "1500");
    node = SpongeService.start(SpongeServerConfig.from(conf));
    server = node.address();
  }

  @AfterEach
  void tearDown() {
    node.close();
    TempDirs.deleteRecursively(dir);
  }

  @Test
  void trickledFramesAreCutAndOnePeerCannotTakeEverySlot() throws Exception {
    ExecutorService slow = Executors.newFixedThreadPool(SLOTS + 4);
    try {
      List<Future<Integer>> attackers = new ArrayList<>();
      for (int i = 0; i < SLOTS + 4; i++) {
        attackers.add(slow.submit(() -> TricklingPeers.trickle(server, FRAME, () -> {})));
      }
      // Every attacker connected: the per-peer cap admitted PER_PEER, the rest were refused.
      Await.until(
          "the attackers hold their per-peer cap",
          () -> node.metrics().getConnectionsRefused() >= SLOTS + 4 - PER_PEER);

      // A well-behaved client on another address is served while the attack goes on.
      assertEquals(
          Status.OK,
          TricklingPeers.freeSpaceFrom(server, "127.0.0.2"),
          "a normal client is served");

      for (Future<Integer> a : attackers) {
        assertTrue(
            a.get() < FRAME, "no slow connection is served to the end of its 12-second frame");
      }
      assertTrue(
          node.metrics().getConnectionsRefused() >= attackers.size() - PER_PEER,
          node.metrics().getConnectionsRefused()
              + " of "
              + attackers.size()
              + " slow connections refused past the per-peer cap of "
              + PER_PEER);
      assertTrue(
          node.metrics().getExchangesTimedOut() >= 1,
          "admitted slow connections are cut at the exchange deadline");
      assertEquals(
          Status.OK,
          TricklingPeers.freeSpaceFrom(server, "127.0.0.1"),
          "the slow peer's address is served again");
    } finally {
      slow.shutdownNow();
    }
  }
}
