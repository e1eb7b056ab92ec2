package dev.levee.sponge.tier;

import dev.levee.sponge.SpongeMetrics;
import dev.levee.sponge.Tier;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteMemory;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file's chunks in other nodes' sponges. The candidate servers are the tracker's list as of file
 * creation (nearest first); servers this file already stored on are tried first so that a file
 * spans as few nodes as possible (each extra node is one more way for the task to fail). A server
 * that says it is full is stale for this file and is not asked again; so is one that failed.
 */
public final class RemoteMemoryTier implements ChunkTier {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteMemoryTier.class);

  private final RemoteMemory remote;
  private final List<SpongeServerAddress> candidates;
  private final SpongeMetrics metrics;
  private final Set<SpongeServerAddress> used = new LinkedHashSet<>();
  private final Set<SpongeServerAddress> exhausted = new HashSet<>();
  private final List<RemoteChunk> held = new ArrayList<>();

  public RemoteMemoryTier(
      RemoteMemory remote, List<SpongeServerAddress> servers, SpongeMetrics metrics) {
    this.remote = remote;
    this.candidates = List.copyOf(servers);
    this.metrics = metrics;
  }

  @Override
  public Tier tier() {
    return Tier.REMOTE_MEMORY;
  }

  /** Servers in the order the next chunk will try them. */
  List<SpongeServerAddress> order() {
    List<SpongeServerAddress> order = new ArrayList<>(used);
    for (SpongeServerAddress s : candidates) {
      if (!used.contains(s) && !exhausted.contains(s)) {
        order.add(s);
      }
    }
    return order;
  }

  /** Servers this file has chunks on, in order of first use. */
  public synchronized List<SpongeServerAddress> serversUsed() {
    return List.copyOf(used);
  }

  /**
   * Tries the servers in {@link #order()}; empty when none had room. Throws only when every server
   * tried failed with an error (none merely full), so that the cause reaches the caller if no later
   * tier can take the chunk either.
   */
  @Override
  public synchronized Optional<StoredChunk> store(ByteBuffer data) throws IOException {
    IOException failures = null;
    boolean anyFull = false;
    for (SpongeServerAddress server : order()) {
      try {
        Optional<RemoteChunk> chunk = remote.store(server, data.duplicate());
        if (chunk.isPresent()) {
          used.add(server);
          held.add(chunk.get());
          return Optional.of(new StoredChunk.Remote(chunk.get()));
        }
        metrics.staleRemoteServer();
        anyFull = true;
      } catch (IOException e) {
        metrics.remoteServerError();
        LOG.warn(
            "sponge server {} failed to store a chunk; not using it for this file again",
            server,
            e);
        if (failures == null) {
          failures = new IOException("sponge server " + server + " failed: " + e.getMessage(), e);
        } else {
          failures.addSuppressed(e);
        }
      }
      used.remove(server);
      exhausted.add(server);
    }
    if (failures != null && !anyFull) {
      throw failures;
    }
    return Optional.empty();
  }

  /**
   * The pipelined {@link #store}: the chunk is sent to the first server in {@link #order()} and
   * this returns; a refusal or failure moves on to the next server (on {@code retries}) exactly as
   * {@link #store} does, so several chunks of the file can be on the wire to the same server at
   * once.
   */
  @Override
  public CompletableFuture<Optional<StoredChunk>> storeAsync(ByteBuffer data, Executor retries) {
    return attempt(data, retries, new Attempts());
  }

  /** What the servers tried so far for one chunk said. */
  private static final class Attempts {
    IOException failures;
    boolean anyFull;
  }

  private CompletableFuture<Optional<StoredChunk>> attempt(
      ByteBuffer data, Executor retries, Attempts so) {
    SpongeServerAddress server;
    synchronized (this) {
      List<SpongeServerAddress> order = order();
      server = order.isEmpty() ? null : order.get(0);
    }
    if (server == null) {
      if (so.failures != null && !so.anyFull) {
        return CompletableFuture.failedFuture(so.failures);
      }
      return CompletableFuture.completedFuture(Optional.empty());
    }
    CompletableFuture<Optional<RemoteChunk>> sent;
    try {
      sent = remote.storeAsync(server, data.duplicate());
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e);
    }
    return sent.handle(
            (chunk, error) -> {
              synchronized (this) {
                if (error == null && chunk.isPresent()) {
                  used.add(server);
                  held.add(chunk.get());
                  return Optional.of((StoredChunk) new StoredChunk.Remote(chunk.get()));
                }
                if (error == null) {
                  metrics.staleRemoteServer();
                  so.anyFull = true;
                } else {
                  Throwable cause =
                      error instanceof CompletionException && error.getCause() != null
                          ? error.getCause()
                          : error;
                  if (!(cause instanceof IOException)) {
                    throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
                  }
                  metrics.remoteServerError();
                  LOG.warn(
                      "sponge server {} failed to store a chunk; not using it for this file again",
                      server,
                      cause);
                  if (so.failures == null) {
                    so.failures =
                        new IOException(
                            "sponge server " + server + " failed: " + cause.getMessage(), cause);
                  } else {
                    so.failures.addSuppressed(cause);
                  }
                }
                used.remove(server);
                exhausted.add(server);
                return null; // try the next server
              }
            })
        .thenCompose(
            stored ->
                stored != null
                    ? CompletableFuture.completedFuture(stored)
                    : CompletableFuture.supplyAsync(() -> attempt(data, retries, so), retries)
                        .thenCompose(f -> f));
  }

  @Override
  public void read(StoredChunk chunk, ByteBuffer dst) throws IOException {
    remote.read(((StoredChunk.Remote) chunk).handle(), dst);
  }

  @Override
  public int releaseAll() throws IOException {
    List<RemoteChunk> chunks;
    synchronized (this) {
      chunks = new ArrayList<>(held);
      held.clear();
    }
    int freed = 0;
    IOException first = null;
    for (RemoteChunk c : chunks) {
      try {
        remote.free(c);
        freed++;
      } catch (IOException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return freed;
  }
}
