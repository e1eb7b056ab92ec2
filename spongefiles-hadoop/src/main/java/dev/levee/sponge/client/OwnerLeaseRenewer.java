package dev.levee.sponge.client;

import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.Closeable;
import java.io.IOException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps this owner's lease fresh with every server that holds chunks of it: a server keeps a remote
 * owner's chunks while the owner renews, whatever its own node's server says, so a live task does
 * not lose its remote chunks when only its node's server dies. One daemon thread, started with the
 * first remote chunk.
 */
final class OwnerLeaseRenewer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(OwnerLeaseRenewer.class);

  /** Sends one renewal to one server. */
  interface Renewal {
    void renew(SpongeServerAddress server) throws IOException;
  }

  private final Renewal renewal;
  private final long periodMillis;
  private final Set<SpongeServerAddress> holders = ConcurrentHashMap.newKeySet();
  private ScheduledExecutorService timer; // guarded by this
  private boolean closed; // guarded by this

  OwnerLeaseRenewer(Renewal renewal, long periodMillis) {
    this.renewal = renewal;
    this.periodMillis = periodMillis;
  }

  /** {@code server} now holds a chunk of this owner (its store renewed the lease already). */
  void holdsChunksOn(SpongeServerAddress server) {
    if (holders.add(server)) {
      startTimer();
    }
  }

  /** Renews at every holder now; a holder that does not answer is tried again next period. */
  void renewAll() {
    for (SpongeServerAddress server : holders) {
      try {
        renewal.renew(server);
      } catch (IOException | RuntimeException e) {
        LOG.debug("could not renew the owner lease with {}: {}", server, e.toString());
      }
    }
  }

  private synchronized void startTimer() {
    if (timer != null || closed) {
      return;
    }
    timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "sponge-owner-lease");
              t.setDaemon(true);
              return t;
            });
    timer.scheduleWithFixedDelay(this::renewAll, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (timer != null) {
      timer.shutdownNow();
    }
  }
}
