package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.testing.Await;
import dev.levee.sponge.testing.TempDirs;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 28 (S2): sockets trickling their first bytes and reconnecting held every slot, so a
 * well-formed client was refused. A new connection must finish its first request within the
 * handshake budget, and one address may hold only a few connections that have not.
 */
@Timeout(60)
class HandshakeBudgetTest {
  private static final int SLOTS = 8;
  private static final int TRICKLED = 30; // bytes a slow socket sends, one per 200 ms: 6 s

  @Test
  void slowFirstRequestsAreCutAtTheBudgetAndCannotHoldEverySlot() throws Exception {
    Path dir = TempDirs.newShmDir("handshake");
    Configuration conf = TestNodes.conf(dir, 4);
    conf.set("levee.sponge.server.max-connections", Integer.toString(SLOTS));
    conf.set("levee.sponge.server.max-connections-per-peer", Integer.toString(SLOTS));
    conf.set("levee.sponge.server.max-handshakes-per-peer", "4");
    conf.set("levee.sponge.server.handshake-timeout-ms", "1000");
    conf.set("levee.sponge.server.socket-timeout-ms", "30000");
    conf.set("levee.sponge.server.frame-timeout-ms", "30000");
    ExecutorService slow = Executors.newFixedThreadPool(SLOTS);
    try (SpongeService node = SpongeService.start(SpongeServerConfig.from(conf))) {
      SpongeServerAddress server = node.address();
      AtomicInteger connected = new AtomicInteger();
      List<Future<Integer>> attackers = new ArrayList<>();
      for (int i = 0; i < SLOTS; i++) {
        attackers.add(
            slow.submit(
                () -> TricklingPeers.trickle(server, TRICKLED, connected::incrementAndGet)));
      }
      Await.until("every slow socket connected", () -> connected.get() == SLOTS);
      // One address trickling into every slot: a well-formed client elsewhere is still served.
      assertEquals(
          Status.OK,
          TricklingPeers.freeSpaceFrom(server, "127.0.0.2"),
          "a normal client is served");
      for (Future<Integer> a : attackers) {
        int sent = a.get();
        assertTrue(sent < TRICKLED, sent + " bytes trickled: not cut at the 1 s budget");
      }
      assertEquals(
          Status.OK, TricklingPeers.freeSpaceFrom(server, "127.0.0.1"), "the slow address again");
    } finally {
      slow.shutdownNow();
      TempDirs.deleteRecursively(dir);
    }
  }

  /**
   * Two addresses, each within its cap of connections in their handshake, together hold every slot
   * and reconnect as soon as they are cut: a well-formed client on a third address is served each
   * time, by taking the slot of the heavier address's oldest slow connection (before: BUSY, as with
   * ten addresses against 64 slots in the review).
   */
  @Test
  void addressesThatTogetherFillEverySlotYieldToAThirdAddress() throws Exception {
    Path dir = TempDirs.newShmDir("handshake-fair");
    ExecutorService slow = Executors.newFixedThreadPool(SLOTS + 2);
    AtomicBoolean stop = new AtomicBoolean();
    try (SpongeService node = SpongeService.start(SpongeServerConfig.from(twoAddressConf(dir)))) {
      SpongeServerAddress server = node.address();
      AtomicInteger connected = new AtomicInteger();
      trickleFromTwoAddresses(server, slow, stop, connected);
      int served = 0;
      for (int attempt = 0; attempt < 5; attempt++) {
        Await.until(
            "the slow addresses hold every slot",
            () -> node.metrics().getOpenConnections() == SLOTS && connected.get() >= SLOTS);
        if (TricklingPeers.freeSpaceFrom(server, "127.0.0.2") == Status.OK) {
          served++;
        }
      }
      assertEquals(5, served, "the third address is served every time");
      // At least the first attempt found every slot held by slow peers: before, it got BUSY.
      // Later ones may find the slot their own previous connection just left.
      assertTrue(node.metrics().getHandshakesEvicted() >= 1, "a slow connection gave way");
    } finally {
      stop.set(true);
      slow.shutdownNow();
      TempDirs.deleteRecursively(dir);
    }
  }

  /**
   * An evicted connection hands its slot to the newcomer without the acceptor waiting for its
   * thread. The count of slots must survive that: after many evictions, exactly {@code SLOTS}
   * working connections are admitted again and the next is refused (a permit released twice would
   * admit it; a permit lost would refuse one of the {@code SLOTS}).
   */
  @Test
  void evictionsNeitherLoseNorAddSlots() throws Exception {
    Path dir = TempDirs.newShmDir("handshake-slots");
    ExecutorService slow = Executors.newFixedThreadPool(SLOTS + 2);
    AtomicBoolean stop = new AtomicBoolean();
    List<Socket> held = new ArrayList<>();
    try (SpongeService node = SpongeService.start(SpongeServerConfig.from(twoAddressConf(dir)))) {
      SpongeServerAddress server = node.address();
      AtomicInteger connected = new AtomicInteger();
      trickleFromTwoAddresses(server, slow, stop, connected);
      Await.until(
          "the slow addresses hold every slot", () -> node.metrics().getOpenConnections() == SLOTS);
      for (int i = 0; i < 20; i++) {
        // On a loaded machine a newcomer may find the pool's threads still held by evicted handlers
        // unwinding (CI of e983727: BUSY once in 20); it is served on a retry. What this test pins
        // is the slot count after the evictions, below.
        Status answer = Status.BUSY;
        for (int attempt = 0; attempt < 50 && answer != Status.OK; attempt++) {
          if (attempt > 0) {
            Thread.sleep(100);
          }
          answer = TricklingPeers.freeSpaceFrom(server, "127.0.0.2");
        }
        assertEquals(Status.OK, answer, "newcomer " + i + ", within 50 attempts");
      }
      assertTrue(node.metrics().getHandshakesEvicted() >= 1, "slow connections gave way");
      stop.set(true);
      slow.shutdownNow();
      Await.until("every connection closed", () -> node.metrics().getOpenConnections() == 0);

      for (int i = 0; i < SLOTS; i++) {
        Socket s = TricklingPeers.connectFrom(server, "127.0.0." + (10 + i));
        held.add(s);
        assertEquals(Status.OK, TricklingPeers.askFreeSpace(s), "working connection " + i);
      }
      assertEquals(
          Status.BUSY,
          TricklingPeers.freeSpaceFrom(server, "127.0.0.30"),
          "a connection past the " + SLOTS + " slots");
    } finally {
      stop.set(true);
      slow.shutdownNow();
      for (Socket s : held) {
        s.close();
      }
      TempDirs.deleteRecursively(dir);
    }
  }

  /**
   * Peers that connect and send nothing hold every slot. Each newcomer evicts one, and the evicted
   * connection's handler must end at once: closing its socket alone left the handler asleep in its
   * selector until the 20 s handshake cut, its thread held beside the newcomer's.
   */
  @Test
  void evictedSilentPeersUnwindAtOnce() throws Exception {
    Path dir = TempDirs.newShmDir("handshake-silent");
    List<Socket> silent = new ArrayList<>();
    try (SpongeService node = SpongeService.start(SpongeServerConfig.from(twoAddressConf(dir)))) {
      SpongeServerAddress server = node.address();
      for (int i = 0; i < SLOTS; i++) {
        silent.add(TricklingPeers.connectFrom(server, i % 2 == 0 ? "127.0.0.1" : "127.0.0.3"));
      }
      Await.until(
          "the silent peers hold every slot", () -> node.metrics().getOpenConnections() == SLOTS);
      int newcomers = 3;
      for (int i = 0; i < newcomers; i++) {
        assertEquals(Status.OK, TricklingPeers.freeSpaceFrom(server, "127.0.0.2"), "newcomer " + i);
      }
      // A newcomer finds a slot free when the one before it has already left; the first cannot.
      long evicted = node.metrics().getHandshakesEvicted();
      assertTrue(evicted >= 1 && evicted <= newcomers, evicted + " evictions");
      Await.until(
          "the " + evicted + " evicted silent peers' handlers ended",
          () -> node.metrics().getOpenConnections() == SLOTS - evicted);
    } finally {
      for (Socket s : silent) {
        s.close();
      }
      TempDirs.deleteRecursively(dir);
    }
  }

  /** Every slot, and half of them per address for connections in their handshake. */
  private static Configuration twoAddressConf(Path dir) {
    Configuration conf = TestNodes.conf(dir, 4);
    conf.set("levee.sponge.server.max-connections", Integer.toString(SLOTS));
    conf.set("levee.sponge.server.max-connections-per-peer", Integer.toString(SLOTS));
    conf.set("levee.sponge.server.max-handshakes-per-peer", Integer.toString(SLOTS / 2));
    conf.set("levee.sponge.server.handshake-timeout-ms", "20000");
    conf.set("levee.sponge.server.socket-timeout-ms", "30000");
    conf.set("levee.sponge.server.frame-timeout-ms", "30000");
    return conf;
  }

  /** SLOTS + 2 slow sockets from two addresses, reconnecting whenever cut or refused. */
  private static void trickleFromTwoAddresses(
      SpongeServerAddress server,
      ExecutorService slow,
      AtomicBoolean stop,
      AtomicInteger connected) {
    for (int i = 0; i < SLOTS + 2; i++) {
      String from = i % 2 == 0 ? "127.0.0.1" : "127.0.0.3";
      slow.submit(
          () -> {
            while (!stop.get()) {
              TricklingPeers.trickle(server, from, TRICKLED, connected::incrementAndGet);
            }
            return null;
          });
    }
  }
}
