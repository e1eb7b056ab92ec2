package dev.levee.bench.hadoop.fuzz;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A well-behaved task beside the attack: it stores a chunk of seeded bytes, reads it back, checks
 * every byte and frees it, over and over, from its own address. Its successes, failures, corrupt
 * reads (must stay 0) and round-trip times per phase are what "normal clients served" means.
 */
final class Canary implements AutoCloseable {
  private final SpongeClient client;
  private final SpongeServerAddress server;
  private final int chunkBytes;
  private final ServerSampler sampler;
  private final Thread thread;
  private volatile boolean stop;
  final AtomicLong served = new AtomicLong();
  final AtomicLong failed = new AtomicLong();
  final AtomicLong corrupt = new AtomicLong();

  /** Stores answered "no room": the pool was full (hostile grants wait for the collector). */
  final AtomicLong noRoom = new AtomicLong();

  /** Round trips (store + read + free) in milliseconds, with the phase each ran in. */
  private final List<Double> trips = new ArrayList<>();

  private final List<String> tripPhases = new ArrayList<>();

  /** The application the canary acts for. */
  static final String APPLICATION = "application_1_0042";

  /**
   * @param clusterSecret null for a server without authentication; else the canary proves its
   *     application's secret derived from it, as a task granted it does
   */
  Canary(SpongeServerAddress server, int chunkBytes, ServerSampler sampler, byte[] clusterSecret) {
    this.server = server;
    this.chunkBytes = chunkBytes;
    this.sampler = sampler;
    this.client =
        new SpongeClient(
            ClientIdentity.ofCurrentProcess(APPLICATION, "127.0.0.1:1", null),
            new StaticServerList(List.of(new ServerListEntry(server, 1, 1))),
            new ClientSettings(5000, 10_000, chunkBytes, 2)
                .withCredential(
                    clusterSecret == null
                        ? null
                        : new Handshake.Credential(
                            Handshake.Kind.APPLICATION,
                            APPLICATION,
                            Handshake.derivedApplicationSecret(clusterSecret, APPLICATION))));
    this.thread = new Thread(this::loop, "sponge-fuzz-canary");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  private void loop() {
    Random seeds = new Random(42);
    byte[] data = new byte[chunkBytes];
    ByteBuffer back = ByteBuffer.allocate(chunkBytes);
    while (!stop) {
      new Random(seeds.nextLong()).nextBytes(data);
      String phase = sampler.currentPhase();
      long t0 = System.nanoTime();
      try {
        Optional<RemoteChunk> c = client.store(server, ByteBuffer.wrap(data));
        if (c.isEmpty()) {
          noRoom.incrementAndGet();
          Thread.sleep(20);
          continue;
        }
        back.clear();
        client.read(c.get(), back);
        back.flip();
        if (!back.equals(ByteBuffer.wrap(data))) {
          corrupt.incrementAndGet();
        }
        client.free(c.get());
        served.incrementAndGet();
        record(phase, (System.nanoTime() - t0) / 1e6);
      } catch (Exception e) {
        failed.incrementAndGet();
        try {
          Thread.sleep(50);
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
  }

  private synchronized void record(String phase, double millis) {
    trips.add(millis);
    tripPhases.add(phase);
  }

  /** The round-trip times of one phase, in milliseconds. */
  synchronized List<Double> tripsIn(String phase) {
    List<Double> out = new ArrayList<>();
    for (int i = 0; i < trips.size(); i++) {
      if (tripPhases.get(i).equals(phase)) {
        out.add(trips.get(i));
      }
    }
    return out;
  }

  @Override
  public void close() {
    stop = true;
    try {
      thread.join(15_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    client.close();
  }
}
