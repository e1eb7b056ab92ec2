package dev.levee.sponge.server;

import dev.levee.sponge.local.ChunkOwner;
import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * Leases of remote owners with this server: when each owner last stored a chunk here or renewed
 * ({@code RENEW}). A fresh lease proves the owner itself is alive, whatever its own node's server
 * says or fails to say, and it is the same in any pid namespace. Only owners that stored a chunk
 * here get a lease (a renewal creates none), and owners with no chunk left lose theirs, so the
 * table is bounded by the pool's owners.
 */
final class RemoteOwnerLeases {
  private final Map<ChunkOwner, Long> renewedAtMillis = new ConcurrentHashMap<>();
  private final LongSupplier clockMillis;

  RemoteOwnerLeases(LongSupplier clockMillis) {
    this.clockMillis = clockMillis;
  }

  /** {@code owner} stored a chunk here: its lease starts, or is renewed. */
  void stored(ChunkOwner owner) {
    renewedAtMillis.put(owner, clockMillis.getAsLong());
  }

  /** Renews {@code owner}'s lease if it has one; returns whether it had. */
  boolean renew(ChunkOwner owner) {
    long now = clockMillis.getAsLong();
    return renewedAtMillis.computeIfPresent(owner, (o, at) -> Math.max(at, now)) != null;
  }

  /** Whether {@code owner} renewed within the last {@code leaseMillis}. */
  boolean fresh(ChunkOwner owner, long leaseMillis) {
    Long at = renewedAtMillis.get(owner);
    return at != null && clockMillis.getAsLong() - at < leaseMillis;
  }

  /** Whether an owner {@code which} accepts renewed within the last {@code leaseMillis}. */
  boolean anyFresh(Predicate<ChunkOwner> which, long leaseMillis) {
    long now = clockMillis.getAsLong();
    for (Map.Entry<ChunkOwner, Long> e : renewedAtMillis.entrySet()) {
      if (now - e.getValue() < leaseMillis && which.test(e.getKey())) {
        return true;
      }
    }
    return false;
  }

  /** This table's clock, for {@link #retainOwners}. */
  long now() {
    return clockMillis.getAsLong();
  }

  /**
   * Forgets the leases of owners that hold no chunk here any more: absent from {@code owners}, a
   * snapshot taken after {@code snapshotAtMillis}, and not stored or renewed since then (a lease
   * begun after the time is newer than the snapshot, which cannot show it yet).
   */
  void retainOwners(Collection<ChunkOwner> owners, long snapshotAtMillis) {
    Set<ChunkOwner> holding = new HashSet<>(owners);
    renewedAtMillis
        .entrySet()
        .removeIf(e -> !holding.contains(e.getKey()) && e.getValue() < snapshotAtMillis);
  }

  int size() {
    return renewedAtMillis.size();
  }
}
