package dev.levee.sponge.server;

import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.protocol.Capability;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The chunks this server handed out to remote clients: for each, the capability that unlocks it,
 * the application it counts against, its owner entry in the pool and its length; plus
 * per-application counts for quotas.
 *
 * <p>Kept in server memory only: after a restart the capabilities are gone, so the server frees
 * every remote-owned chunk at start (see {@link SpongeService}) and clients reading them get "no
 * such chunk".
 */
final class ChunkGrants {
  record Grant(
      int chunk,
      Capability capability,
      String applicationId,
      ChunkOwner owner,
      int length,
      long grantedAtNanos) {}

  private final Map<Integer, Grant> byChunk = new HashMap<>();

  /** Granted plus reserved (allocation in flight) chunks per application. */
  private final Map<String, Integer> perApplication = new HashMap<>();

  /**
   * Counts one chunk against {@code applicationId} if that stays within {@code quota}; false when
   * it would not.
   */
  synchronized boolean reserve(String applicationId, int quota) {
    int used = perApplication.getOrDefault(applicationId, 0);
    if (used >= quota) {
      return false;
    }
    perApplication.put(applicationId, used + 1);
    return true;
  }

  /** Gives back a reservation whose allocation failed. */
  synchronized void unreserve(String applicationId) {
    decrement(applicationId);
  }

  /** Turns a reservation into a grant. */
  synchronized void grant(Grant g) {
    byChunk.put(g.chunk(), g);
  }

  /**
   * The grant for {@code chunk} if {@code capability} unlocks it, else null (unknown and wrong look
   * the same).
   */
  synchronized Grant lookup(int chunk, Capability capability) {
    Grant g = byChunk.get(chunk);
    return g != null && g.capability().matches(capability) ? g : null;
  }

  /**
   * Whether {@code g} is still the live grant of its chunk (it was not freed or collected
   * meanwhile).
   */
  synchronized boolean isCurrent(Grant g) {
    return byChunk.get(g.chunk()) == g;
  }

  /** Removes and returns the grant if {@code capability} unlocks it. */
  synchronized Grant revoke(int chunk, Capability capability) {
    Grant g = lookup(chunk, capability);
    if (g != null) {
      byChunk.remove(chunk);
      decrement(g.applicationId());
    }
    return g;
  }

  /**
   * Removes and returns every grant of an application (it finished: its chunks go back to the
   * pool).
   */
  synchronized List<Grant> revokeApplication(String applicationId) {
    List<Grant> out = new ArrayList<>();
    for (Iterator<Grant> it = byChunk.values().iterator(); it.hasNext(); ) {
      Grant g = it.next();
      if (g.applicationId().equals(applicationId)) {
        it.remove();
        out.add(g);
      }
    }
    perApplication.remove(applicationId);
    return out;
  }

  /**
   * Drops grants whose chunk no longer belongs to the grant's owner in the pool (garbage-collected,
   * or freed behind our back), so quotas and capabilities follow the pool. Only grants older than
   * the snapshot are judged: a chunk allocated after {@code snapshotNanos} may be missing from it.
   * Returns how many were dropped.
   */
  synchronized int retainOwned(Map<Integer, ChunkOwner> poolOwners, long snapshotNanos) {
    int dropped = 0;
    for (Iterator<Grant> it = byChunk.values().iterator(); it.hasNext(); ) {
      Grant g = it.next();
      if (g.grantedAtNanos() - snapshotNanos < 0 && !g.owner().equals(poolOwners.get(g.chunk()))) {
        it.remove();
        decrement(g.applicationId());
        dropped++;
      }
    }
    return dropped;
  }

  /** Whether {@code owner} holds a chunk here for {@code applicationId}. */
  synchronized boolean holds(ChunkOwner owner, String applicationId) {
    for (Grant g : byChunk.values()) {
      if (g.owner().equals(owner) && g.applicationId().equals(applicationId)) {
        return true;
      }
    }
    return false;
  }

  synchronized int size() {
    return byChunk.size();
  }

  synchronized int usedBy(String applicationId) {
    return perApplication.getOrDefault(applicationId, 0);
  }

  private void decrement(String applicationId) {
    perApplication.computeIfPresent(applicationId, (k, v) -> v <= 1 ? null : v - 1);
  }
}
