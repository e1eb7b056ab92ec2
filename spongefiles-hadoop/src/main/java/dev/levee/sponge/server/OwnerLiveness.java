package dev.levee.sponge.server;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides whether a chunk owner is dead. A local owner (its host is one of this node's names) is
 * checked by its lease in the pool (a lock the kernel drops when it dies, in any pid namespace); a
 * remote owner by asking its node's sponge server IS_ALIVE, whose answer wins (so a killed owner is
 * freed in one round). When that server cannot be reached, the owner's own lease with this server
 * decides: an owner that renewed within {@code unreachableGraceMillis} is alive (only its node's
 * server died, issue 13 item 12); otherwise the peer is given the benefit of the doubt for {@code
 * unreachableGraceMillis} (it may be restarting), after which its owners count as dead, because a
 * node that stays gone takes its tasks with it.
 */
final class OwnerLiveness {
  private static final Logger LOG = LoggerFactory.getLogger(OwnerLiveness.class);

  private final Set<String> localNames;
  private final int defaultPort;
  private final SpongeClient probe;
  private final long unreachableGraceMillis;
  private final LongSupplier clockMillis;
  private final LocalLeases localLeases;
  private final Supplier<Set<String>> registeredNodes;
  private final ExecutorService probes;
  private final int probeTimeoutMillis;
  private final RemoteOwnerLeases remoteLeases;

  /** Whether a local owner's lease is held (see the pool's owner leases). */
  interface LocalLeases {
    boolean held(long ownerId) throws IOException;
  }

  /**
   * Most peers whose grace period runs at once. Owner node names are client input, so without a cap
   * this map grows with every distinct name a client sends (a hostile review saw 1,601 entries); a
   * real cluster has far fewer nodes. A peer past the cap starts its grace once older ones leave,
   * so its owners' chunks are kept longer, never freed early.
   */
  static final int MAX_TRACKED_PEERS = 1024;

  /**
   * When each peer was first found unreachable, for the peers that some owner of the latest round
   * names: a peer no owner names any more is forgotten, so the map holds no more than the pool's
   * owners, and at most {@link #MAX_TRACKED_PEERS}.
   */
  private final Map<SpongeServerAddress, Long> unreachableSince = new ConcurrentHashMap<>();

  OwnerLiveness(
      Set<String> localNames,
      int defaultPort,
      SpongeClient probe,
      long unreachableGraceMillis,
      LongSupplier clockMillis,
      LocalLeases localLeases,
      Supplier<Set<String>> registeredNodes,
      ExecutorService probes,
      int probeTimeoutMillis,
      RemoteOwnerLeases remoteLeases) {
    this.remoteLeases = remoteLeases;
    this.localLeases = localLeases;
    this.registeredNodes = registeredNodes;
    this.probes = probes;
    this.probeTimeoutMillis = probeTimeoutMillis;
    this.localNames = Set.copyOf(localNames);
    this.defaultPort = defaultPort;
    this.probe = probe;
    this.unreachableGraceMillis = unreachableGraceMillis;
    this.clockMillis = clockMillis;
  }

  /** How many peers' grace periods are running. */
  int trackedPeers() {
    return unreachableSince.size();
  }

  boolean isLocal(ChunkOwner owner) {
    return localNames.contains(owner.host());
  }

  /**
   * Whether an owner of this node with id {@code pid} keeps a fresh lease with this server: a task
   * that stores its local chunks through the server (levee.sponge.local.access) holds no lease in
   * the pool, and its pid may be another namespace's, so this is how IS_ALIVE sees it alive.
   */
  boolean renewsHere(long pid) {
    return remoteLeases.anyFresh(o -> o.pid() == pid && isLocal(o), unreachableGraceMillis);
  }

  /**
   * A predicate for one GC round over {@code owners}. Every remote owner's node is probed before
   * the round starts, all at once and bounded by the probe timeout, so silent nodes cost one
   * timeout per round, not one each; and only registered sponge servers are contacted at all (an
   * owner's node name is client input: it must not make this server connect anywhere). An owner
   * that appears after the probes is kept this round.
   */
  Predicate<ChunkOwner> newRound(Collection<ChunkOwner> owners) {
    Set<String> trusted = registeredNodes.get();
    Map<ChunkOwner, CompletableFuture<Boolean>> answers = new HashMap<>();
    Map<ChunkOwner, SpongeServerAddress> probed = new HashMap<>();
    Map<SpongeServerAddress, Boolean> unreachable = new ConcurrentHashMap<>();
    for (ChunkOwner owner : new HashSet<>(owners)) {
      if (isLocal(owner)) {
        continue;
      }
      SpongeServerAddress peer;
      try {
        peer = NodeNames.serverOf(owner.host(), defaultPort);
      } catch (IllegalArgumentException e) {
        LOG.warn(
            "chunk owner {} names no reachable sponge server ({}); reclaiming its chunks",
            owner,
            e.getMessage());
        answers.put(owner, CompletableFuture.completedFuture(Boolean.FALSE));
        continue;
      }
      if (!trusted.contains(NodeNames.of(peer))) {
        unreachable.put(peer, Boolean.TRUE);
        continue;
      }
      probed.put(owner, peer);
      answers.put(
          owner,
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return probe.isAlive(peer, owner.pid());
                } catch (IOException e) {
                  unreachable.put(peer, Boolean.TRUE);
                  // Per owner, so DEBUG: the round's summary below is the operator's line.
                  LOG.debug(
                      "owner {}'s sponge server {} is unreachable: {}", owner, peer, e.toString());
                  return null;
                }
              },
              probes));
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(probeTimeoutMillis + 500L);
    Map<ChunkOwner, Boolean> alive = new HashMap<>();
    for (Map.Entry<ChunkOwner, CompletableFuture<Boolean>> e : answers.entrySet()) {
      Boolean answer;
      try {
        answer = e.getValue().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (TimeoutException | ExecutionException ex) {
        answer = null;
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        answer = null;
      }
      if (answer == null) {
        e.getValue().cancel(true);
        // Only probed owners can go unanswered: the others' answer is already complete.
        unreachable.put(probed.get(e.getKey()), Boolean.TRUE);
      } else {
        alive.put(e.getKey(), answer);
      }
    }
    long now = clockMillis.getAsLong();
    unreachableSince.keySet().retainAll(unreachable.keySet());
    int untracked = 0;
    long longest = 0;
    for (SpongeServerAddress peer : unreachable.keySet()) {
      if (!unreachableSince.containsKey(peer) && unreachableSince.size() >= MAX_TRACKED_PEERS) {
        untracked++;
        continue;
      }
      long so = now - unreachableSince.computeIfAbsent(peer, p -> now);
      longest = Math.max(longest, so);
      LOG.debug(
          "sponge server {} did not answer this GC round ({} ms so far) or is not registered",
          peer,
          so);
    }
    if (!unreachable.isEmpty()) {
      // One line per round whatever the number of peers: their names are client input.
      LOG.info(
          "{} sponge servers did not answer this GC round or are not registered (longest {} ms,"
              + " {} beyond the {} tracked at once wait for their grace period to start)",
          unreachable.size(),
          longest,
          untracked,
          MAX_TRACKED_PEERS);
    }
    for (ChunkOwner o : alive.keySet()) {
      SpongeServerAddress answered = probed.get(o);
      if (answered != null) {
        unreachableSince.remove(answered);
      }
    }
    return owner -> {
      if (isLocal(owner)) {
        // By the owner's lease, never by pid: a pid of another namespace (a Docker container) is
        // not visible here, and a thread id or a recycled pid would pass for a live owner. A task
        // that may not map the pool (levee.sponge.local.access) holds no pool lease: it stores
        // through this server like a remote owner and keeps its chunks alive by renewing.
        try {
          return !localLeases.held(owner.pid())
              && !remoteLeases.fresh(owner, unreachableGraceMillis);
        } catch (IOException e) {
          LOG.warn("cannot check the lease of chunk owner {}; keeping its chunks: {}", owner, e);
          return false;
        }
      }
      Boolean known = alive.get(owner);
      if (known != null) {
        return !known;
      }
      if (remoteLeases.fresh(owner, unreachableGraceMillis)) {
        return false; // the owner itself renewed lately: it is alive, only its server is not
      }
      SpongeServerAddress peer;
      try {
        peer = NodeNames.serverOf(owner.host(), defaultPort);
      } catch (IllegalArgumentException e) {
        return true;
      }
      Long since = unreachableSince.get(peer);
      return since != null && now - since >= unreachableGraceMillis;
    };
  }
}
