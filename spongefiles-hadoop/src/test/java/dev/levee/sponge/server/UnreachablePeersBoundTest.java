package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.testing.CapturedLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.log4j.Level;
import org.junit.jupiter.api.Test;

/**
 * Issue 28: an owner's node name is client input, so the GC's memory of unreachable peers and its
 * log must not grow with the number of distinct names clients send. A hostile review saw the map go
 * from 1 to 1,601 entries and 5,077 INFO lines for 1,600 chunks.
 */
class UnreachablePeersBoundTest {
  private static final int OWNERS = 1_600;
  private static final long GRACE = 60_000;

  private static List<ChunkOwner> owners(String prefix, int n) {
    List<ChunkOwner> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new ChunkOwner(1000 + i, prefix + (i / 250) + "." + (i % 250) + ":7000"));
    }
    return out;
  }

  @Test
  void theUnreachablePeerMapStaysBoundedAndForgetsPeersNoOwnerNames() {
    AtomicLong clock = new AtomicLong(1_000_000);
    ExecutorService probes = Executors.newSingleThreadExecutor();
    try (CapturedLog log = CapturedLog.start()) {
      // No peer is registered: none is contacted, every one counts as unreachable.
      OwnerLiveness liveness =
          new OwnerLiveness(
              Set.of("here"),
              7000,
              null,
              GRACE,
              clock::get,
              id -> false,
              Set::of,
              probes,
              300,
              new RemoteOwnerLeases(clock::get));
      List<ChunkOwner> many = owners("10.1.", OWNERS);
      liveness.newRound(many);
      assertTrue(
          liveness.trackedPeers() <= OwnerLiveness.MAX_TRACKED_PEERS,
          liveness.trackedPeers() + " peers tracked");
      liveness.newRound(many);
      assertTrue(liveness.trackedPeers() <= OwnerLiveness.MAX_TRACKED_PEERS);

      // Those owners' chunks are gone; a new round over three others forgets them.
      List<ChunkOwner> few = owners("10.2.", 3);
      liveness.newRound(few);
      assertEquals(3, liveness.trackedPeers());

      // The grace still runs for the peers that are tracked: after it, their owners are dead.
      clock.addAndGet(GRACE);
      Predicate<ChunkOwner> dead = liveness.newRound(few);
      assertTrue(few.stream().allMatch(dead));

      // Four rounds over 1,600 distinct unreachable peers: a few summary lines, not one per peer.
      List<String> lines = log.messages(Level.INFO, OwnerLiveness.class.getName());
      assertTrue(lines.size() <= 4, lines.size() + " INFO lines: " + lines);
      // The rounds' summaries are captured: the bound above is checked on INFO lines that arrive.
      assertFalse(lines.isEmpty(), "no INFO line of OwnerLiveness was captured");
    } finally {
      probes.shutdownNow();
    }
  }
}
