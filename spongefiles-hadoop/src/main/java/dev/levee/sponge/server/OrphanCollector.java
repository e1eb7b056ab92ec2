package dev.levee.sponge.server;

import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import java.io.Closeable;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Periodic garbage collection of the node's pool: frees chunks whose owner died (tasks killed with
 * kill -9 never delete their SpongeFiles), then forgets the grants of chunks that went back to the
 * pool.
 */
final class OrphanCollector implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(OrphanCollector.class);

  private final SharedMemoryPool pool;
  private final ChunkGrants grants;
  private final OwnerLiveness liveness;
  private final SpongeServerMetrics metrics;
  private final ScheduledExecutorService timer;
  private final RemoteOwnerLeases remoteLeases;

  OrphanCollector(
      SharedMemoryPool pool,
      ChunkGrants grants,
      OwnerLiveness liveness,
      SpongeServerMetrics metrics,
      RemoteOwnerLeases remoteLeases) {
    this.remoteLeases = remoteLeases;
    this.pool = pool;
    this.grants = grants;
    this.liveness = liveness;
    this.metrics = metrics;
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sponge-gc");
              t.setDaemon(true);
              return t;
            });
  }

  void start(long periodMillis) {
    timer.scheduleWithFixedDelay(
        this::collectSafely, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  /** One GC round; returns the chunks freed. */
  int collect() {
    if (pool.damage().isEmpty() && pool.checkIntact().isPresent()) {
      LOG.error(
          "sponge pool damaged: {}. Restart this node's sponge server to start a new pool",
          pool.damage().get());
    }
    int freed = pool.reclaim(liveness.newRound(pool.owners().values()));
    // Times first, then one snapshot: a grant or lease made after the snapshot is newer than its
    // time, so it is kept even though the snapshot does not show its owner yet.
    long snapshotAt = System.nanoTime();
    long leaseSnapshotAt = remoteLeases.now();
    Map<Integer, ChunkOwner> owners = pool.owners();
    int dropped = grants.retainOwned(owners, snapshotAt);
    remoteLeases.retainOwners(owners.values(), leaseSnapshotAt);
    metrics.gcRuns.increment();
    metrics.gcReclaimed.add(freed);
    if (freed > 0) {
      LOG.info(
          "sponge GC freed {} chunks of dead owners in {} ({} remote grants dropped)",
          freed,
          pool.directory(),
          dropped);
    }
    return freed;
  }

  private void collectSafely() {
    try {
      collect();
    } catch (RuntimeException | InternalError e) {
      // Never let one bad round stop the schedule: the next one may succeed. An uncaught Error
      // would cancel it for good (SIGBUS on damaged pool memory arrives as an InternalError).
      LOG.error("sponge GC round failed", e);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
