package dev.levee.sponge.placement;

import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Semaphore;

/**
 * Scatter's batch sampling (Bindschaedler, "An Architecture for Load Balance in Computer Cluster
 * Applications", EPFL thesis 2020, section 2.1.4), applied to chunk placement: each chunk copy goes
 * to the least-loaded of {@code K} servers sampled uniformly at random, and the client keeps at
 * most {@code ΦK} stores in flight. With M clients sampling independently, a server is left without
 * work with probability (1 − K/N)^M, so the pool is used evenly however many tasks read the same
 * stale list.
 *
 * <p>The tracker's list is only a hint: it names the candidates and their free chunks at its last
 * poll. The load of a server is estimated from that count minus what this client has stored there
 * since and has in flight there now; a server that answered "full" ranks last until a newer list
 * reports a different free count. No probe is sent: the store replies already say "stored" or
 * "full".
 *
 * <p>Within a file a server that answered full, or failed, is not asked again (as with the free
 * list); a failed server is tried last by every later file of this client, as is one a read failed
 * on. The sampled servers come first, then the rest of the candidates by estimated load, so a full
 * sample falls back to the whole list before the chunk goes to the next tier. Locality (same rack
 * first) is deliberately not used: Scatter forgoes it for balance.
 */
public final class BatchSamplingPolicy implements PlacementPolicy {
  public static final String NAME = "batch-sampling";

  /** The score of a server whose free count the hint does not give (a fixed list). */
  private static final long UNKNOWN_FREE = 1L << 40;

  private final int sampleSize;
  private final int window;
  private final Semaphore permits;
  private final Random random;

  /** Guarded by {@code this}. */
  private final Map<SpongeServerAddress, Load> loads = new HashMap<>();

  /** Servers a store or read failed on; guarded by {@code this}. */
  private final Set<SpongeServerAddress> failed = new HashSet<>();

  /** What this client knows of one server's load. */
  private static final class Load {
    long hintFree = -1;
    int storedSinceHint;
    int inFlight;
    boolean full;
    long hintWhenFull;

    long score() {
      return (hintFree < 0 ? UNKNOWN_FREE : hintFree) - storedSinceHint - inFlight;
    }
  }

  /**
   * @param sampleSize K, the servers sampled per chunk copy (at least 1)
   * @param windowFactor Φ, so that at most ⌈ΦK⌉ stores are in flight (at least 1)
   * @param random the sampling source; each client needs its own seed
   */
  public BatchSamplingPolicy(int sampleSize, double windowFactor, Random random) {
    if (sampleSize < 1) {
      throw new IllegalArgumentException("sample size must be at least 1, was " + sampleSize);
    }
    if (!(windowFactor >= 1)) {
      throw new IllegalArgumentException("window factor must be at least 1, was " + windowFactor);
    }
    this.sampleSize = sampleSize;
    this.window = windowOf(sampleSize, windowFactor);
    this.permits = new Semaphore(window);
    this.random = random;
  }

  /** ⌈ΦK⌉: the stores one client keeps in flight. */
  public static int windowOf(int sampleSize, double windowFactor) {
    return (int) Math.ceil(windowFactor * sampleSize - 1e-9);
  }

  @Override
  public String name() {
    return NAME;
  }

  public int sampleSize() {
    return sampleSize;
  }

  /** The most stores this client has in flight at once. */
  public int window() {
    return window;
  }

  /** Stores in flight now (for tests and the simulator). */
  public int inFlight() {
    return window - permits.availablePermits();
  }

  /** Whether a store could be sent now without waiting for the window. */
  public boolean windowHasRoom() {
    return permits.availablePermits() > 0;
  }

  @Override
  public synchronized FilePlacement newFile(List<ServerListEntry> hint) {
    List<SpongeServerAddress> servers = new ArrayList<>(hint.size());
    for (ServerListEntry e : hint) {
      servers.add(e.address());
      Load l = loads.computeIfAbsent(e.address(), a -> new Load());
      if (l.hintFree != e.freeChunks()) {
        // A list from a newer poll: it supersedes what this client counted since the last one.
        l.hintFree = e.freeChunks();
        l.storedSinceHint = 0;
      }
      if (l.full && l.hintWhenFull != e.freeChunks()) {
        l.full = false;
      }
    }
    return new File(servers);
  }

  private final class File implements FilePlacement {
    private final List<SpongeServerAddress> candidates;

    /** Servers that answered full or failed for this file: not asked again. */
    private final Set<SpongeServerAddress> refused = new HashSet<>();

    File(List<SpongeServerAddress> candidates) {
      this.candidates = List.copyOf(candidates);
    }

    @Override
    public List<SpongeServerAddress> order(Set<SpongeServerAddress> exclude) {
      synchronized (BatchSamplingPolicy.this) {
        List<SpongeServerAddress> pool = new ArrayList<>();
        List<SpongeServerAddress> fullOnes = new ArrayList<>();
        List<SpongeServerAddress> failedOnes = new ArrayList<>();
        for (SpongeServerAddress s : candidates) {
          if (exclude.contains(s) || refused.contains(s)) {
            continue;
          }
          if (failed.contains(s)) {
            failedOnes.add(s);
          } else if (loads.get(s).full) {
            fullOnes.add(s);
          } else {
            pool.add(s);
          }
        }
        // A uniform sample of K distinct servers: the first K places of a partial shuffle.
        int k = Math.min(sampleSize, pool.size());
        for (int i = 0; i < k; i++) {
          int j = i + random.nextInt(pool.size() - i);
          SpongeServerAddress t = pool.get(i);
          pool.set(i, pool.get(j));
          pool.set(j, t);
        }
        Comparator<SpongeServerAddress> leastLoaded =
            Comparator.comparingLong((SpongeServerAddress s) -> loads.get(s).score()).reversed();
        List<SpongeServerAddress> sample = new ArrayList<>(pool.subList(0, k));
        List<SpongeServerAddress> rest = new ArrayList<>(pool.subList(k, pool.size()));
        sample.sort(leastLoaded); // stable: ties stay in random order
        rest.sort(leastLoaded);
        List<SpongeServerAddress> order =
            new ArrayList<>(pool.size() + fullOnes.size() + failedOnes.size());
        order.addAll(sample);
        order.addAll(rest);
        order.addAll(fullOnes);
        order.addAll(failedOnes);
        return order;
      }
    }

    @Override
    public void begin(SpongeServerAddress server) throws IOException {
      try {
        permits.acquire();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted waiting for the sponge store window", e);
      }
      synchronized (BatchSamplingPolicy.this) {
        loads.computeIfAbsent(server, a -> new Load()).inFlight++;
      }
    }

    @Override
    public void end(SpongeServerAddress server, Outcome outcome) {
      synchronized (BatchSamplingPolicy.this) {
        Load l = loads.computeIfAbsent(server, a -> new Load());
        l.inFlight--;
        switch (outcome) {
          case STORED -> l.storedSinceHint++;
          case FULL -> {
            l.full = true;
            l.hintWhenFull = l.hintFree;
            refused.add(server);
          }
          case FAILED -> {
            failed.add(server);
            refused.add(server);
          }
        }
      }
      permits.release();
    }

    @Override
    public void readFailed(SpongeServerAddress server) {
      synchronized (BatchSamplingPolicy.this) {
        failed.add(server);
      }
    }
  }
}
