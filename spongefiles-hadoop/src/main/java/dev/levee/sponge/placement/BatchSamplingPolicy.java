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
 * <p>The tracker's list is only a hint: it names the candidates (servers with room at its last
 * poll). "Least loaded" is judged first-hand: fewest of this client's stores in flight there (a
 * store still unanswered is the client's view of that server's queue), then fewest of this client's
 * chunks there, and only then whether the list gave it room for a whole window of stores (a server
 * about to fill ranks after roomy ones); ties stay in random order. Ranking by the list's free
 * counts would herd: every task sampling a few servers would pick the same globally most-free ones,
 * whose counts are a poll old (Mitzenmacher, "How Useful Is Old Information?", IEEE TPDS 2000); in
 * the simulator in {@code bench} that ranking lost 5 to 12 points of utilization. A server that
 * answered "full" ranks last until a newer list reports a different free count. No probe is sent:
 * the store replies already say "stored" or "full".
 *
 * <p>Within a file a server that answered full, or failed, is not asked again (as with the free
 * list); a failed server is tried last by every later file of this client, as is one a read failed
 * on. The sampled servers come first, then the rest of the candidates in random order, so a full
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
    int stored;
    int inFlight;
    boolean full;
    long hintWhenFull;

    long free() {
      return hintFree < 0 ? UNKNOWN_FREE : hintFree;
    }
  }

  /** Least loaded first: fewest stores in flight, fewest chunks stored, room for a window. */
  private final Comparator<SpongeServerAddress> leastLoaded =
      Comparator.comparingInt((SpongeServerAddress s) -> loads.get(s).inFlight)
          .thenComparingInt(s -> loads.get(s).stored)
          .thenComparingInt(this::crowded);

  /** 0 when the list gave {@code s} room for a whole window of stores, else 1. */
  private int crowded(SpongeServerAddress s) {
    return loads.get(s).free() >= window ? 0 : 1;
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

  @Override
  public synchronized FilePlacement newFile(List<ServerListEntry> hint) {
    List<SpongeServerAddress> servers = new ArrayList<>(hint.size());
    for (ServerListEntry e : hint) {
      servers.add(e.address());
      Load l = loads.computeIfAbsent(e.address(), a -> new Load());
      if (l.full && l.hintWhenFull != e.freeChunks()) {
        l.full = false; // a newer poll: believe the list again
      }
      l.hintFree = e.freeChunks();
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
        List<SpongeServerAddress> sample = new ArrayList<>(pool.subList(0, k));
        List<SpongeServerAddress> rest = pool.subList(k, pool.size());
        sample.sort(leastLoaded); // stable: ties stay in random order
        // The rest stays in random order: a further sample each, should the first be full.
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
          case STORED -> l.stored++;
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
