package dev.levee.sponge.placement;

import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
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
 * poll). "Least loaded" is judged first-hand. Each store reply carries the server's queue (the
 * stores it was still serving) and free count ({@link ServerLoad}); the servers of the client's
 * last ΦK replies join every sample, so a server that said its queue is short gets the next store
 * of the client it told, and one that said it is long is passed over. That is where the thesis's
 * premise (every server always has a request queued) is won or lost: a server whose queue runs dry
 * between two rare samples sits idle. A server without a recent report is reckoned at the mean of
 * the remembered reports plus the client's own stores in flight there. Ties go to fewest of this
 * client's stores in flight, then fewest of its chunks there, then whether the list gave it room
 * for a whole window of stores; remaining ties stay in random order. No probe is sent: the load
 * rides on replies the client waits for anyway, and only the client that sent a store hears it, so
 * tasks do not all chase the same server. Ranking by the list's free counts would herd: every task
 * sampling a few servers would pick the same globally most-free ones, whose counts are a poll old
 * (Mitzenmacher, "How Useful Is Old Information?", IEEE TPDS 2000); in the simulator in {@code
 * bench} that ranking lost 5 to 12 points of utilization. A server that answered "full", or
 * reported no free chunk, ranks last until a newer list reports a different free count.
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

  /**
   * The servers of this client's last ΦK load reports, oldest first; guarded by {@code this}. They
   * join every sample as extra candidates (the "memory" of Mitzenmacher, Prabhakar and Shah, "Load
   * Balancing with Memory", FOCS 2002): a server that just said its queue is short is worth another
   * store from the client it told. Older reports are forgotten: the queue has moved on since.
   */
  private final ArrayDeque<SpongeServerAddress> reported = new ArrayDeque<>();

  /** What this client knows of one server's load. */
  private static final class Load {
    long hintFree = -1;
    int stored;
    int inFlight;
    boolean full;
    long hintWhenFull;

    /** The queue and free count of the server's last report, -1 when there is none in use. */
    int reportedQueue = -1;

    long reportedFree = -1;
    long hintWhenReported;

    /** Stores this client sent there since that report: they are in its queue now. */
    int sentSinceReport;

    long free() {
      if (reportedFree >= 0) {
        return reportedFree - sentSinceReport;
      }
      return hintFree < 0 ? UNKNOWN_FREE : hintFree;
    }
  }

  /**
   * A server's queue as this client reckons it: its last report plus what the client sent since;
   * for a server that did not report lately, a typical reported queue plus the client's own stores
   * in flight there. Equal for all servers while nothing was reported.
   */
  private double queue(SpongeServerAddress s, double typical) {
    Load l = loads.get(s);
    if (l.reportedQueue >= 0 && reported.contains(s)) {
      return l.reportedQueue + l.sentSinceReport;
    }
    return typical + l.inFlight;
  }

  /** The mean queue of the remembered reports, or 0 when there is none. */
  private double typicalQueue() {
    if (reported.isEmpty()) {
      return 0;
    }
    double sum = 0;
    for (SpongeServerAddress s : reported) {
      sum += loads.get(s).reportedQueue;
    }
    return sum / reported.size();
  }

  /**
   * Least loaded first: shortest reckoned queue, then fewest stores in flight, fewest chunks
   * stored, room for a window.
   */
  private Comparator<SpongeServerAddress> leastLoaded() {
    double typical = typicalQueue();
    Map<SpongeServerAddress, Double> queues = new HashMap<>();
    return Comparator.comparingDouble(
            (SpongeServerAddress s) -> queues.computeIfAbsent(s, a -> queue(a, typical)))
        .thenComparingInt(s -> loads.get(s).inFlight)
        .thenComparingInt(s -> loads.get(s).stored)
        .thenComparingInt(this::crowded);
  }

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
      if (l.reportedFree >= 0 && l.hintWhenReported != e.freeChunks()) {
        l.reportedFree = -1; // likewise: the list is newer than the report
      }
      l.hintFree = e.freeChunks();
    }
    return new File(servers);
  }

  /** A load report from {@code server}'s store reply. */
  private void learn(SpongeServerAddress server, Load l, ServerLoad load) {
    l.reportedQueue = load.storesInProgress();
    l.reportedFree = load.freeChunks();
    l.hintWhenReported = l.hintFree;
    l.sentSinceReport = 0;
    if (load.freeChunks() == 0) {
      l.full = true; // the next store there would only hear "full"
      l.hintWhenFull = l.hintFree;
    }
    reported.remove(server);
    reported.addLast(server);
    if (reported.size() > window) {
      reported.removeFirst();
    }
  }

  private final class File implements FilePlacement {
    private final List<SpongeServerAddress> candidates;
    private final Set<SpongeServerAddress> candidateSet;

    /** Servers that answered full or failed for this file: not asked again. */
    private final Set<SpongeServerAddress> refused = new HashSet<>();

    File(List<SpongeServerAddress> candidates) {
      this.candidates = List.copyOf(candidates);
      this.candidateSet = new HashSet<>(candidates);
    }

    /** Not excluded, refused, failed or full: a server the sample may hold. */
    private boolean eligible(SpongeServerAddress s, Set<SpongeServerAddress> exclude) {
      return !exclude.contains(s)
          && !refused.contains(s)
          && !failed.contains(s)
          && !loads.get(s).full;
    }

    /**
     * K eligible candidates drawn uniformly without replacement, in draw order, by rejection: a
     * draw costs O(1), not a pass over the list. When ineligible servers make rejection slow, the
     * draw is abandoned for an exact pass; the result is uniform either way, because which servers
     * are drawn does not bear on whether the draw is abandoned.
     */
    private List<SpongeServerAddress> sample(Set<SpongeServerAddress> exclude) {
      int n = candidates.size();
      List<SpongeServerAddress> sample = new ArrayList<>(sampleSize);
      if (n > 4 * sampleSize) {
        Set<SpongeServerAddress> drawn = new HashSet<>();
        for (int tries = 0; tries < 8 * sampleSize && sample.size() < sampleSize; tries++) {
          SpongeServerAddress s = candidates.get(random.nextInt(n));
          if (eligible(s, exclude) && drawn.add(s)) {
            sample.add(s);
          }
        }
        if (sample.size() == sampleSize) {
          return sample;
        }
        sample.clear();
      }
      List<SpongeServerAddress> pool = new ArrayList<>();
      for (SpongeServerAddress s : candidates) {
        if (eligible(s, exclude)) {
          pool.add(s);
        }
      }
      int k = Math.min(sampleSize, pool.size());
      for (int i = 0; i < k; i++) {
        int j = i + random.nextInt(pool.size() - i);
        SpongeServerAddress t = pool.get(i);
        pool.set(i, pool.get(j));
        pool.set(j, t);
      }
      sample.addAll(pool.subList(0, k));
      return sample;
    }

    /** The sample and the remembered reporters, least loaded first. */
    private List<SpongeServerAddress> ranked(Set<SpongeServerAddress> exclude) {
      List<SpongeServerAddress> ranked = sample(exclude);
      for (SpongeServerAddress s : reported) {
        if (candidateSet.contains(s) && eligible(s, exclude) && !ranked.contains(s)) {
          ranked.add(s);
        }
      }
      ranked.sort(leastLoaded()); // stable: ties stay in random order
      return ranked;
    }

    @Override
    public SpongeServerAddress first(Set<SpongeServerAddress> exclude) {
      synchronized (BatchSamplingPolicy.this) {
        List<SpongeServerAddress> ranked = ranked(exclude);
        if (!ranked.isEmpty()) {
          return ranked.get(0);
        }
      }
      return FilePlacement.super.first(exclude); // only full or failed servers left
    }

    @Override
    public List<SpongeServerAddress> order(Set<SpongeServerAddress> exclude) {
      synchronized (BatchSamplingPolicy.this) {
        List<SpongeServerAddress> ranked = ranked(exclude);
        Set<SpongeServerAddress> inRanked = new HashSet<>(ranked);
        List<SpongeServerAddress> rest = new ArrayList<>();
        List<SpongeServerAddress> fullOnes = new ArrayList<>();
        List<SpongeServerAddress> failedOnes = new ArrayList<>();
        for (SpongeServerAddress s : candidates) {
          if (exclude.contains(s) || refused.contains(s) || inRanked.contains(s)) {
            continue;
          }
          if (failed.contains(s)) {
            failedOnes.add(s);
          } else if (loads.get(s).full) {
            fullOnes.add(s);
          } else {
            rest.add(s);
          }
        }
        // The rest in random order: a further sample each, should the first be full.
        Collections.shuffle(rest, random);
        List<SpongeServerAddress> order =
            new ArrayList<>(ranked.size() + rest.size() + fullOnes.size() + failedOnes.size());
        order.addAll(ranked);
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
        Load l = loads.computeIfAbsent(server, a -> new Load());
        l.inFlight++;
        l.sentSinceReport++;
      }
    }

    @Override
    public void end(SpongeServerAddress server, Outcome outcome) {
      end(server, outcome, ServerLoad.UNKNOWN);
    }

    @Override
    public void end(SpongeServerAddress server, Outcome outcome, ServerLoad load) {
      synchronized (BatchSamplingPolicy.this) {
        Load l = loads.computeIfAbsent(server, a -> new Load());
        l.inFlight--;
        switch (outcome) {
          case STORED -> {
            l.stored++;
            if (load.known()) {
              learn(server, l, load);
            }
          }
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
