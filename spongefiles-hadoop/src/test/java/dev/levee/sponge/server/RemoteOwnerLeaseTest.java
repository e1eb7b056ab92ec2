package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.testing.TempDirs;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 13, item 12: a remote owner is judged alive by its own lease with the server that holds its
 * chunks, so a live owner keeps its chunks when only its own node's server is gone; an owner that
 * stops renewing is freed as before, one grace period after its last renewal.
 */
@Timeout(60)
class RemoteOwnerLeaseTest {
  private static final int CHUNKS = 16;
  private static final long GRACE_MS = 1500;
  private static final String DEAD_SERVER_NODE = "127.0.0.1:1"; // nothing listens on port 1
  private Path dir;
  private SpongeService server;

  @BeforeEach
  void setUp() throws Exception {
    dir = TempDirs.newShmDir("lease");
    Configuration c = TestNodes.conf(dir, CHUNKS);
    c.set(SpongeConf.GC_PERIOD_MS.name(), "60000"); // rounds run by hand
    c.set(SpongeConf.GC_PEER_GRACE_MS.name(), Long.toString(GRACE_MS));
    server = SpongeService.start(SpongeServerConfig.from(c));
  }

  @AfterEach
  void tearDown() {
    server.close();
    TempDirs.deleteRecursively(dir);
  }

  @Test
  void aLiveOwnerWhoseOwnServerIsGoneKeepsItsChunksWhileItRenewsItsLease() throws Exception {
    try (SpongeClient owner =
        TestNodes.client("application_1_0007", DEAD_SERVER_NODE, List.of(server.address()))) {
      owner.store(server.address(), TestNodes.randomBytes(10, 1)).orElseThrow();
      assertEquals(0, server.collectGarbage(), "the owner's node is unreachable: grace starts");
      // Its own server is gone for three grace periods, but the owner is alive and renews.
      long until = System.nanoTime() + 3 * GRACE_MS * 1_000_000L;
      while (System.nanoTime() < until) {
        owner.renewOwnerLeases();
        Thread.sleep(GRACE_MS / 5);
        assertEquals(0, server.collectGarbage(), "a renewing owner is alive");
        assertEquals(CHUNKS - 1, server.metrics().getChunksFree());
      }
      // The owner stops renewing (it died with its node): freed one grace after its last renewal.
      Thread.sleep(GRACE_MS + 200);
      assertEquals(1, server.collectGarbage(), "an owner that stopped renewing counts as dead");
      assertEquals(CHUNKS, server.metrics().getChunksFree());
    }
  }

  @Test
  void aRenewalNamingAnOwnerWithNoChunksHereKeepsNothingAlive() throws Exception {
    try (SpongeClient stranger =
        TestNodes.client("application_1_0008", DEAD_SERVER_NODE, List.of(server.address()))) {
      stranger.renewOwnerLeases(); // has stored nothing here: nothing to renew, no error
      stranger.renewOwnerLease(server.address());
    }
    assertEquals(0, server.remoteOwnerLeases(), "a renewal does not create a lease");
  }

  /**
   * A task of this node that stores through its server (levee.sponge.local.access=server) holds no
   * lease in the pool, and in a container its pid is not one this server can see. Another node's
   * collector asking IS_ALIVE about it got "dead" and freed its live chunks there; its lease with
   * this server now answers.
   */
  @Test
  void isAliveAnswersForAnOwnerOfThisNodeByItsLeaseWithTheServer() throws Exception {
    long unseenPid = unusedPid();
    ClientIdentity inContainer =
        new ClientIdentity("application_1_0009", unseenPid, server.nodeName(), null);
    try (SpongeClient task =
            new SpongeClient(
                inContainer,
                new StaticServerList(List.of()),
                new ClientSettings(2000, 5000, TestNodes.CHUNK, 2));
        SpongeClient otherNode =
            TestNodes.client("application_1_0001", DEAD_SERVER_NODE, List.of(server.address()))) {
      assertFalse(otherNode.isAlive(server.address(), unseenPid), "no such process, no lease");
      task.store(server.address(), TestNodes.randomBytes(10, 4)).orElseThrow();
      assertTrue(
          otherNode.isAlive(server.address(), unseenPid),
          "an owner of this node that renews its lease here was reported dead");
      assertEquals(0, server.collectGarbage(), "and this server keeps its chunks");
    }
  }

  private static long unusedPid() {
    for (long pid = 4_000_000; pid > 1_000; pid -= 7919) {
      if (ProcessHandle.of(pid).isEmpty()) {
        return pid;
      }
    }
    throw new IllegalStateException("no unused pid found");
  }
}
