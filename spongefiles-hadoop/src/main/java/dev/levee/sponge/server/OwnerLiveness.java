package dev.levee.sponge.server;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a chunk owner is dead. A local owner (its host is one of this node's names) is
 * checked by its lease in the pool (a lock the kernel drops when it dies, in any pid namespace); a
 * remote owner by asking its node's sponge server IS_ALIVE. A peer that cannot be reached is given
 * the benefit of the doubt for {@code unreachableGraceMillis} (it may be restarting); after that
 * its owners count as dead, because a node that stays gone takes its tasks with it.
 */
final class OwnerLiveness {
  private static final Logger LOG = LoggerFactory.getLogger(OwnerLiveness.class);

  private final Set<String> localNames;
  private final int defaultPort;
  private final SpongeClient probe;
  private final long unreachableGraceMillis;
  private final LongSupplier clockMillis;
  private final LocalLeases localLeases;

  /** Whether a local owner's lease is held (see the pool's owner leases). */
  interface LocalLeases {
    boolean held(long ownerId) throws IOException;
  }

  private final Map<SpongeServerAddress, Long> unreachableSince = new ConcurrentHashMap<>();

  OwnerLiveness(
      Set<String> localNames,
      int defaultPort,
      SpongeClient probe,
      long unreachableGraceMillis,
      LongSupplier clockMillis,
      LocalLeases localLeases) {
    this.localLeases = localLeases;
    this.localNames = Set.copyOf(localNames);
    this.defaultPort = defaultPort;
    this.probe = probe;
    this.unreachableGraceMillis = unreachableGraceMillis;
    this.clockMillis = clockMillis;
  }

  boolean isLocal(ChunkOwner owner) {
    return localNames.contains(owner.host());
  }

  /**
   * A predicate for one GC round. It remembers peers that failed to answer in this round, so that
   * many owners on one dead node cost one connect timeout, not one each.
   */
  Predicate<ChunkOwner> newRound() {
    Map<SpongeServerAddress, Boolean> unreachableThisRound = new HashMap<>();
    return owner -> {
      if (isLocal(owner)) {
        // By the owner's lease, never by pid: a pid of another namespace (a Docker container) is
        // not visible here, and a thread id or a recycled pid would pass for a live owner.
        try {
          return !localLeases.held(owner.pid());
        } catch (IOException e) {
          LOG.warn("cannot check the lease of chunk owner {}; keeping its chunks: {}", owner, e);
          return false;
        }
      }
      SpongeServerAddress peer;
      try {
        peer = NodeNames.serverOf(owner.host(), defaultPort);
      } catch (IllegalArgumentException e) {
        LOG.warn(
            "chunk owner {} names no reachable sponge server ({}); reclaiming its chunks",
            owner,
            e.getMessage());
        return true;
      }
      if (!unreachableThisRound.containsKey(peer)) {
        try {
          boolean alive = probe.isAlive(peer, owner.pid());
          unreachableSince.remove(peer);
          return !alive;
        } catch (IOException e) {
          long now = clockMillis.getAsLong();
          long since = unreachableSince.computeIfAbsent(peer, p -> now);
          unreachableThisRound.put(peer, Boolean.TRUE);
          LOG.info(
              "owner {}'s sponge server {} is unreachable ({} ms so far): {}",
              owner,
              peer,
              now - since,
              e.getMessage());
        }
      }
      Long since = unreachableSince.get(peer);
      return since != null && clockMillis.getAsLong() - since >= unreachableGraceMillis;
    };
  }
}
