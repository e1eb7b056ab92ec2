package dev.levee.bench.hadoop.scatter;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteMemory;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * N sponge servers as the placement code sees them, without sockets: each has a capacity in chunks
 * and a FIFO queue of stores; each round it files one store (a refusal costs nothing), as a server
 * bound by its memory bandwidth does, and its reply reports the stores still queued and its free
 * chunks, as a sponge server's store reply does. The real {@code RemoteMemoryTier} and placement
 * policies talk to it through {@link RemoteMemory#storeAsync}, exactly as they talk to the TCP
 * client.
 */
final class SimulatedServers implements RemoteMemory {
  record Chunk(SpongeServerAddress server, int length, ServerLoad loadWhenStored)
      implements RemoteChunk {}

  private record Pending(CompletableFuture<Optional<RemoteChunk>> reply, int length) {}

  private final int capacity;
  private final int replyRounds;
  private final boolean loadReports;

  /** Replies on their way back, by the round they arrive in (oldest first). */
  private final ArrayDeque<List<Runnable>> inTransit = new ArrayDeque<>();

  private final List<SpongeServerAddress> addresses = new ArrayList<>();
  private final Map<SpongeServerAddress, Integer> index = new HashMap<>();
  private final int[] used;
  private final List<ArrayDeque<Pending>> queues = new ArrayList<>();
  private long storesSent;
  private long refusals;
  private long usedTotal;
  private double utilizationAtFirstRefusal = Double.NaN;
  private double[] spreadAtFirstRefusal;

  /**
   * @param replyRounds rounds a reply takes to reach its task (0: before the next round)
   * @param loadReports whether store replies carry the server's load (servers before it did not)
   */
  SimulatedServers(int servers, int capacity, int replyRounds, boolean loadReports) {
    this.capacity = capacity;
    this.replyRounds = replyRounds;
    this.loadReports = loadReports;
    for (int r = 0; r < replyRounds; r++) {
      inTransit.add(new ArrayList<>());
    }
    this.used = new int[servers];
    for (int i = 0; i < servers; i++) {
      SpongeServerAddress a = new SpongeServerAddress("sim-" + i, 7000, null);
      addresses.add(a);
      index.put(a, i);
      queues.add(new ArrayDeque<>());
    }
  }

  int size() {
    return addresses.size();
  }

  SpongeServerAddress address(int i) {
    return addresses.get(i);
  }

  /**
   * What the memory tracker would publish now: servers with a free chunk, most free first (ties in
   * server order), with their free counts.
   */
  List<ServerListEntry> trackerList() {
    List<ServerListEntry> list = new ArrayList<>();
    for (int i = 0; i < used.length; i++) {
      if (used[i] < capacity) {
        list.add(new ServerListEntry(addresses.get(i), capacity - used[i], capacity));
      }
    }
    list.sort(Comparator.comparingInt(ServerListEntry::freeChunks).reversed());
    return list;
  }

  @Override
  public List<SpongeServerAddress> serversWithFreeChunks() {
    throw new UnsupportedOperationException("the simulation hands out the tracker's list itself");
  }

  @Override
  public Optional<RemoteChunk> store(SpongeServerAddress server, ByteBuffer data) {
    throw new UnsupportedOperationException("the simulation pipelines every store");
  }

  @Override
  public CompletableFuture<Optional<RemoteChunk>> storeAsync(
      SpongeServerAddress server, ByteBuffer data) {
    storesSent++;
    CompletableFuture<Optional<RemoteChunk>> reply = new CompletableFuture<>();
    queues.get(index.get(server)).add(new Pending(reply, data.remaining()));
    return reply;
  }

  /** Servers with at least one store queued: the thesis's "utilized" servers. */
  int busyServers() {
    int busy = 0;
    for (ArrayDeque<Pending> q : queues) {
      if (!q.isEmpty()) {
        busy++;
      }
    }
    return busy;
  }

  /**
   * One round: every server files the store at the head of its queue and answers the refusals
   * before it. The answers reach their tasks {@code replyRounds} rounds later; replies run the
   * placement code's callbacks, which may queue retries elsewhere.
   */
  void serveOneRound() {
    List<Runnable> replies = new ArrayList<>();
    for (int i = 0; i < queues.size(); i++) {
      ArrayDeque<Pending> q = queues.get(i);
      while (!q.isEmpty()) {
        Pending p = q.poll();
        if (used[i] < capacity) {
          used[i]++;
          usedTotal++;
          // The reply reports the queue the store leaves behind, as a real server's does.
          ServerLoad load =
              loadReports ? new ServerLoad(q.size(), capacity - used[i]) : ServerLoad.UNKNOWN;
          Chunk c = new Chunk(addresses.get(i), p.length(), load);
          answer(replies, () -> p.reply().complete(Optional.of(c)));
          break;
        }
        refusals++;
        if (Double.isNaN(utilizationAtFirstRefusal)) {
          utilizationAtFirstRefusal = utilization();
          spreadAtFirstRefusal = spread();
        }
        answer(replies, () -> p.reply().complete(Optional.empty()));
      }
    }
    if (replyRounds > 0) {
      inTransit.add(replies);
      inTransit.poll().forEach(Runnable::run);
    }
  }

  /** Without a delay a reply arrives at once, so a refused store's retry is filed this round. */
  private void answer(List<Runnable> replies, Runnable reply) {
    if (replyRounds == 0) {
      reply.run();
    } else {
      replies.add(reply);
    }
  }

  /** Fraction of the pool's chunks in use. */
  double utilization() {
    return usedTotal / (double) ((long) capacity * used.length);
  }

  /** {max/mean, coefficient of variation} of chunks used per server. */
  double[] spread() {
    double mean = usedTotal / (double) used.length;
    double max = 0;
    double var = 0;
    for (int u : used) {
      max = Math.max(max, u);
      var += (u - mean) * (u - mean);
    }
    var /= used.length;
    return mean == 0
        ? new double[] {Double.NaN, Double.NaN}
        : new double[] {max / mean, Math.sqrt(var) / mean};
  }

  long storesSent() {
    return storesSent;
  }

  long refusals() {
    return refusals;
  }

  long usedTotal() {
    return usedTotal;
  }

  double utilizationAtFirstRefusal() {
    return utilizationAtFirstRefusal;
  }

  double[] spreadAtFirstRefusal() {
    return spreadAtFirstRefusal;
  }

  @Override
  public void read(RemoteChunk chunk, ByteBuffer dst) {
    throw new UnsupportedOperationException("the simulation only places chunks");
  }

  @Override
  public void free(RemoteChunk chunk) {
    throw new UnsupportedOperationException("the simulation only places chunks");
  }

  @Override
  public void close() {}
}
