package dev.levee.sponge.testing;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteMemory;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Remote memory for SpongeFile unit tests: each "server" is a real sponge pool in its own tmpfs
 * directory, reached in process instead of over TCP (the TCP client and servers are tested on their
 * own). It lets a test list servers in a chosen order, fill them, make one fail (as a lost server
 * does), hold stores to observe back-pressure, and hold or fail frees.
 */
public final class PoolBackedRemoteMemory implements RemoteMemory {
  /**
   * The owner remote chunks are recorded under in the server pools (a server allocates on a
   * client's behalf).
   */
  public static final ChunkOwner SERVER_SIDE_OWNER =
      new ChunkOwner(ProcessHandle.current().pid(), "remote-client");

  private final Map<SpongeServerAddress, SharedMemoryPool> servers = new LinkedHashMap<>();
  private final Set<SpongeServerAddress> lost = ConcurrentHashMap.newKeySet();
  private final AtomicInteger storeCalls = new AtomicInteger();
  private final AtomicInteger readCalls = new AtomicInteger();
  private final AtomicInteger freeCalls = new AtomicInteger();
  private volatile CountDownLatch storeGate;
  private volatile CountDownLatch freeGate;
  private volatile boolean failFrees;
  private List<SpongeServerAddress> advertised;

  public record Chunk(SpongeServerAddress server, int index, int length) implements RemoteChunk {
    @Override
    public String toString() {
      return "#" + index;
    }
  }

  public SpongeServerAddress addServer(String host, Path poolDir, int chunks, int chunkSize)
      throws IOException {
    SpongeServerAddress a = new SpongeServerAddress(host, 7000 + servers.size(), "rack-1");
    servers.put(a, SharedMemoryPool.open(poolDir, (long) chunks * chunkSize, chunkSize));
    return a;
  }

  public SharedMemoryPool pool(SpongeServerAddress a) {
    return servers.get(a);
  }

  /** What the tracker answers from now on (default: every server, in the order added). */
  public void advertise(List<SpongeServerAddress> list) {
    advertised = List.copyOf(list);
  }

  public void lose(SpongeServerAddress a) {
    lost.add(a);
  }

  /** Stores wait on the returned latch until it is counted down. */
  public CountDownLatch holdStores() {
    storeGate = new CountDownLatch(1);
    return storeGate;
  }

  /** Frees wait on the returned latch until it is counted down. */
  public CountDownLatch holdFrees() {
    freeGate = new CountDownLatch(1);
    return freeGate;
  }

  /** Frees fail from now on, as a server answering FREE with an error does. */
  public void failFrees() {
    failFrees = true;
  }

  /** Frees begun, whether they finished or not. */
  public int freeCalls() {
    return freeCalls.get();
  }

  public int storeCalls() {
    return storeCalls.get();
  }

  public int readCalls() {
    return readCalls.get();
  }

  @Override
  public List<SpongeServerAddress> serversWithFreeChunks() {
    return advertised != null ? advertised : new ArrayList<>(servers.keySet());
  }

  @Override
  public Optional<RemoteChunk> store(SpongeServerAddress server, ByteBuffer data)
      throws IOException {
    storeCalls.incrementAndGet();
    CountDownLatch gate = storeGate;
    if (gate != null) {
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted");
      }
    }
    if (lost.contains(server)) {
      throw new IOException("connection refused: " + server);
    }
    SharedMemoryPool pool = servers.get(server);
    OptionalInt c = pool.allocate(SERVER_SIDE_OWNER);
    if (c.isEmpty()) {
      return Optional.empty();
    }
    int length = data.remaining();
    pool.write(c.getAsInt(), data);
    return Optional.of(new Chunk(server, c.getAsInt(), length));
  }

  @Override
  public void read(RemoteChunk chunk, ByteBuffer dst) throws IOException {
    readCalls.incrementAndGet();
    Chunk c = (Chunk) chunk;
    if (lost.contains(c.server())) {
      throw new IOException(
          "remote chunk " + c + " on sponge server " + c.server() + " is gone: connection refused");
    }
    servers.get(c.server()).read(c.index(), c.length(), dst);
  }

  @Override
  public void free(RemoteChunk chunk) throws IOException {
    freeCalls.incrementAndGet();
    CountDownLatch gate = freeGate;
    if (gate != null) {
      try {
        gate.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted");
      }
    }
    if (failFrees) {
      throw new IOException("cannot free remote chunk " + chunk + ": the server answered ERROR");
    }
    Chunk c = (Chunk) chunk;
    if (!lost.contains(c.server())) {
      servers.get(c.server()).free(c.index(), SERVER_SIDE_OWNER);
    }
  }

  @Override
  public void close() {
    servers.values().forEach(SharedMemoryPool::close);
  }
}
