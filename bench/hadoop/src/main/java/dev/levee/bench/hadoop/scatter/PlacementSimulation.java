package dev.levee.bench.hadoop.scatter;

import dev.levee.sponge.SpongeMetrics;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.placement.BatchSamplingPolicy;
import dev.levee.sponge.placement.FreeListPolicy;
import dev.levee.sponge.placement.PlacementPolicy;
import dev.levee.sponge.tier.RemoteMemoryTier;
import dev.levee.sponge.tier.StoredChunk;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * M spilling tasks filling the remote memory of N sponge servers through the real placement code
 * (one {@link PlacementPolicy} per task, one {@link RemoteMemoryTier} per spill file), in rounds.
 * Each round every task tops up its stores in flight to ⌈ΦK⌉ (both policies, so only placement
 * differs), then every server files one store. Tasks learn which servers have room only from the
 * memory tracker's list, republished every {@code staleRounds} rounds and read once per file, as in
 * SpongeFiles; task t runs on node t mod N and, like the real client, leaves its own node out.
 * Deterministic for a seed.
 */
final class PlacementSimulation {
  private static final Executor DIRECT = Runnable::run;

  record Params(
      String policy,
      int servers,
      int tasksPerServer,
      int capacity,
      int sampleSize,
      double windowFactor,
      int staleRounds,
      int fileChunks,
      int replicas,
      int replyRounds,
      boolean loadReports,
      long seed) {
    int tasks() {
      return servers * tasksPerServer;
    }

    int window() {
      return BatchSamplingPolicy.windowOf(sampleSize, windowFactor);
    }

    /** The thesis's U(M, N, K) = 1 − (1 − K/N)^M (equation 2.2). */
    double boundU() {
      return 1 - Math.pow(1 - Math.min(1.0, sampleSize / (double) servers), tasks());
    }
  }

  record Outcome(
      double utilizationAtFirstRefusal,
      double utilizationAtFirstSpill,
      double busyUntilFirstRefusal,
      double busyUntilFirstSpill,
      double maxOverMeanAtHalf,
      double cvAtHalf,
      double maxOverMeanAtFirstRefusal,
      double cvAtFirstRefusal,
      double trackerReadsPerChunk,
      double storesPerChunk,
      long chunksPlaced,
      int rounds) {}

  private final Params p;
  private final SimulatedServers servers;
  private final Task[] tasks;
  private List<ServerListEntry> published;
  private long trackerReads;
  private boolean spilled;

  private final class Task {
    final int node;
    final PlacementPolicy policy;
    RemoteMemoryTier file;
    int fileChunks;
    int inFlight;

    Task(int id) {
      this.node = id % p.servers();
      this.policy =
          p.policy().equals(FreeListPolicy.NAME)
              ? new FreeListPolicy()
              : new BatchSamplingPolicy(
                  p.sampleSize(), p.windowFactor(), new Random(p.seed() * 1_000_003L + id));
    }

    void topUp(ByteBuffer chunk) {
      while (inFlight < p.window() && !spilled) {
        if (file == null || fileChunks == p.fileChunks()) {
          newFile();
        }
        fileChunks++;
        inFlight++;
        CompletableFuture<Optional<StoredChunk>> f = file.storeAsync(chunk, DIRECT);
        f.whenComplete(
            (stored, error) -> {
              inFlight--;
              if (error != null) {
                throw new IllegalStateException("simulated store failed", error);
              }
              if (stored.isEmpty()) {
                spilled = true; // no server could take it: it would go to local disk
              }
            });
      }
    }

    private void newFile() {
      trackerReads++;
      List<ServerListEntry> hint = new ArrayList<>(published.size());
      for (ServerListEntry e : published) {
        if (!e.address().equals(servers.address(node))) {
          hint.add(e);
        }
      }
      file = new RemoteMemoryTier(servers, policy.newFile(hint), new SpongeMetrics(), p.replicas());
      fileChunks = 0;
    }
  }

  PlacementSimulation(Params p) {
    this.p = p;
    this.servers =
        new SimulatedServers(p.servers(), p.capacity(), p.replyRounds(), p.loadReports());
    this.tasks = new Task[p.tasks()];
    for (int t = 0; t < tasks.length; t++) {
      tasks[t] = new Task(t);
    }
  }

  Outcome run() {
    ByteBuffer chunk = ByteBuffer.allocate(1);
    Random order = new Random(p.seed());
    int[] taskOrder = new int[tasks.length];
    for (int i = 0; i < taskOrder.length; i++) {
      taskOrder[i] = i;
    }
    double busyBeforeRefusal = 0;
    int roundsBeforeRefusal = 0;
    double busyBeforeSpill = 0;
    double[] atHalf = null;
    double utilAtSpill = Double.NaN;
    int maxRounds = 50 * p.capacity() * p.replicas() + 1000;
    int round = 0;
    for (; round < maxRounds && !spilled && servers.utilization() < 1.0; round++) {
      if (round % p.staleRounds() == 0) {
        published = servers.trackerList();
      }
      // Tasks act in a fresh random order each round, as concurrent tasks would.
      for (int i = taskOrder.length - 1; i > 0; i--) {
        int j = order.nextInt(i + 1);
        int t = taskOrder[i];
        taskOrder[i] = taskOrder[j];
        taskOrder[j] = t;
      }
      for (int t : taskOrder) {
        tasks[t].topUp(chunk);
      }
      double busy = servers.busyServers() / (double) servers.size();
      busyBeforeSpill += busy;
      if (Double.isNaN(servers.utilizationAtFirstRefusal())) {
        busyBeforeRefusal += busy;
        roundsBeforeRefusal++;
      }
      servers.serveOneRound();
      if (atHalf == null && servers.utilization() >= 0.5) {
        atHalf = servers.spread();
      }
      if (spilled && Double.isNaN(utilAtSpill)) {
        utilAtSpill = servers.utilization();
      }
    }
    if (Double.isNaN(utilAtSpill)) {
      utilAtSpill = servers.utilization();
    }
    double[] atRefusal = servers.spreadAtFirstRefusal();
    if (atRefusal == null) {
      atRefusal = servers.spread();
    }
    if (atHalf == null) {
      atHalf = servers.spread();
    }
    double refusalUtil = servers.utilizationAtFirstRefusal();
    long placed = servers.usedTotal();
    return new Outcome(
        Double.isNaN(refusalUtil) ? servers.utilization() : refusalUtil,
        utilAtSpill,
        roundsBeforeRefusal == 0 ? Double.NaN : busyBeforeRefusal / roundsBeforeRefusal,
        round == 0 ? Double.NaN : busyBeforeSpill / round,
        atHalf[0],
        atHalf[1],
        atRefusal[0],
        atRefusal[1],
        trackerReads / (double) Math.max(1, placed),
        servers.storesSent() / (double) Math.max(1, placed),
        placed,
        round);
  }
}
