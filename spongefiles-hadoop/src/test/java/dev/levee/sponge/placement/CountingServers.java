package dev.levee.sponge.placement;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteMemory;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Sponge servers as chunk counters: each has a capacity, stores fill it, a lost one throws. Stores
 * can be held (their futures completed by the test) to observe the request window.
 */
final class CountingServers implements RemoteMemory {
  record Chunk(SpongeServerAddress server, int length, ServerLoad loadWhenStored)
      implements RemoteChunk {
    Chunk(SpongeServerAddress server, int length) {
      this(server, length, ServerLoad.UNKNOWN);
    }
  }

  final Map<SpongeServerAddress, Integer> capacity = new LinkedHashMap<>();
  final Map<SpongeServerAddress, Integer> used = new LinkedHashMap<>();
  final List<SpongeServerAddress> asked = new ArrayList<>();
  final Set<SpongeServerAddress> lost = new HashSet<>();
  final ConcurrentLinkedQueue<Runnable> held = new ConcurrentLinkedQueue<>();

  /** The queue each server's store replies report; servers not named report no load. */
  final Map<SpongeServerAddress, Integer> reportedQueue = new HashMap<>();

  volatile boolean hold;

  SpongeServerAddress add(String host, int chunks) {
    SpongeServerAddress a = new SpongeServerAddress(host, 7000, null);
    capacity.put(a, chunks);
    used.put(a, 0);
    return a;
  }

  /** The tracker's list: every server, with the free count it has now. */
  List<ServerListEntry> hint() {
    List<ServerListEntry> out = new ArrayList<>();
    for (var e : capacity.entrySet()) {
      out.add(new ServerListEntry(e.getKey(), e.getValue() - used.get(e.getKey()), e.getValue()));
    }
    return out;
  }

  @Override
  public List<SpongeServerAddress> serversWithFreeChunks() {
    return new ArrayList<>(capacity.keySet());
  }

  @Override
  public synchronized Optional<RemoteChunk> store(SpongeServerAddress server, ByteBuffer data)
      throws IOException {
    asked.add(server);
    if (lost.contains(server)) {
      throw new IOException("lost " + server);
    }
    int u = used.get(server);
    if (u >= capacity.get(server)) {
      return Optional.empty();
    }
    used.put(server, u + 1);
    Integer queue = reportedQueue.get(server);
    ServerLoad load =
        queue == null
            ? ServerLoad.UNKNOWN
            : new ServerLoad(queue, capacity.get(server) - used.get(server));
    return Optional.of(new Chunk(server, data.remaining(), load));
  }

  @Override
  public CompletableFuture<Optional<RemoteChunk>> storeAsync(
      SpongeServerAddress server, ByteBuffer data) {
    if (!hold) {
      return RemoteMemory.super.storeAsync(server, data);
    }
    CompletableFuture<Optional<RemoteChunk>> f = new CompletableFuture<>();
    ByteBuffer copy = data.duplicate();
    held.add(
        () -> {
          try {
            f.complete(store(server, copy));
          } catch (IOException e) {
            f.completeExceptionally(e);
          }
        });
    return f;
  }

  /** Answers one held store; false when none is held. */
  boolean answerOne() {
    Runnable r = held.poll();
    if (r == null) {
      return false;
    }
    r.run();
    return true;
  }

  @Override
  public void read(RemoteChunk chunk, ByteBuffer dst) throws IOException {
    if (lost.contains(chunk.server())) {
      throw new IOException("lost " + chunk.server());
    }
    dst.position(dst.position() + chunk.length());
  }

  @Override
  public synchronized void free(RemoteChunk chunk) {
    used.merge(chunk.server(), -1, Integer::sum);
  }

  @Override
  public void close() {}
}
