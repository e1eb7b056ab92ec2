package dev.levee.sponge.tier;

import dev.levee.mapred.IOFailures;
import dev.levee.sponge.SpongeMetrics;
import dev.levee.sponge.Tier;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteMemory;
import dev.levee.sponge.placement.FilePlacement;
import dev.levee.sponge.placement.FilePlacement.Outcome;
import dev.levee.sponge.placement.FreeListPolicy;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file's chunks in other nodes' sponges. Which server each copy tries, in which order, is its
 * {@link FilePlacement}'s call (the tracker's list as of file creation, through the client's
 * placement policy): the paper's free list packs a file onto as few servers as possible, batch
 * sampling spreads chunks over the least-loaded of a few random servers. Either way a server that
 * says it is full is stale for this file and is not asked again; so is one that failed.
 *
 * <p>With {@code replicas} above 1 (beyond the paper, which keeps one copy and lets a lost node
 * fail the reducer) each chunk is stored on that many different servers before it counts as placed,
 * and a read falls over to the next copy when a server fails. A chunk whose later copies find no
 * server frees the copies it has and goes to the next tier: a chunk kept with fewer copies than
 * asked for would look protected and not be.
 */
public final class RemoteMemoryTier implements ChunkTier {
  private static final Logger LOG = LoggerFactory.getLogger(RemoteMemoryTier.class);

  private final Tier tier;
  private final RemoteMemory remote;
  private final FilePlacement placement;
  private final SpongeMetrics metrics;
  private final int replicas;

  /** Servers this file has chunks on, in order of first use; guarded by {@code this}. */
  private final List<RemoteChunk> held = new ArrayList<>();

  /**
   * Servers a read failed on, shared by every file of one {@code SpongeFileSystem} (one task).
   * Later reads try their copies there last, and the end of a file does not wait on them to free
   * chunks: their own garbage collector frees a dead owner's chunks, and a lost node's memory is
   * gone anyway. Shared because a frozen server costs each read a whole read timeout: measured on a
   * cluster of containers with one node paused, a reducer whose files learned it each on their own
   * waited 133 s where one timeout would do.
   */
  private final Set<SpongeServerAddress> failedReads;

  /**
   * The first server failure of a store for this file. A copy that finds every server already
   * dropped (pipelined chunks learn of a dead server from one another) reports it, so the error
   * names the server that died rather than saying "no room"; guarded by {@code this}.
   */
  private IOException firstStoreFailure;

  public RemoteMemoryTier(
      RemoteMemory remote, List<SpongeServerAddress> servers, SpongeMetrics metrics) {
    this(remote, servers, metrics, 1);
  }

  /**
   * @param replicas copies of each chunk, each on a different server (1 = the paper's model)
   */
  public RemoteMemoryTier(
      RemoteMemory remote, List<SpongeServerAddress> servers, SpongeMetrics metrics, int replicas) {
    this(remote, FreeListPolicy.forServers(servers), metrics, replicas);
  }

  /**
   * @param placement which servers each copy tries (the file's share of the client's policy)
   * @param replicas copies of each chunk, each on a different server (1 = the paper's model)
   */
  public RemoteMemoryTier(
      RemoteMemory remote, FilePlacement placement, SpongeMetrics metrics, int replicas) {
    this(remote, placement, metrics, replicas, ConcurrentHashMap.newKeySet());
  }

  /**
   * @param failedReads servers a read failed on, shared with the other files of the same task (a
   *     concurrent set this tier adds to)
   */
  public RemoteMemoryTier(
      RemoteMemory remote,
      FilePlacement placement,
      SpongeMetrics metrics,
      int replicas,
      Set<SpongeServerAddress> failedReads) {
    this(Tier.REMOTE_MEMORY, remote, placement, metrics, replicas, failedReads);
  }

  private RemoteMemoryTier(
      Tier tier,
      RemoteMemory remote,
      FilePlacement placement,
      SpongeMetrics metrics,
      int replicas,
      Set<SpongeServerAddress> failedReads) {
    if (replicas < 1) {
      throw new IllegalArgumentException("replicas must be at least 1, was " + replicas);
    }
    this.tier = tier;
    this.remote = remote;
    this.placement = placement;
    this.metrics = metrics;
    this.replicas = replicas;
    this.failedReads = failedReads;
  }

  /**
   * This node's sponge through its own server ({@link Tier#LOCAL_SERVER}): one copy, one server.
   * The wire path is the remote one on purpose, so a task that may not map the pool gets exactly
   * the remote tier's guarantees (a capability per chunk, an authenticated connection, the server's
   * quota and owner checks) and no new code path on the server.
   */
  public static RemoteMemoryTier throughLocalServer(
      RemoteMemory remote, SpongeServerAddress server, SpongeMetrics metrics) {
    return new RemoteMemoryTier(
        Tier.LOCAL_SERVER,
        remote,
        FreeListPolicy.forServers(List.of(server)),
        metrics,
        1,
        ConcurrentHashMap.newKeySet());
  }

  @Override
  public Tier tier() {
    return tier;
  }

  // The remote.* counters describe other nodes' servers; a full or failing local server shows in
  // its tier's own fallback and error counters.
  private void countStale() {
    if (tier == Tier.REMOTE_MEMORY) {
      metrics.staleRemoteServer();
    }
  }

  private void countServerError() {
    if (tier == Tier.REMOTE_MEMORY) {
      metrics.remoteServerError();
    }
  }

  /** Servers in the order the next chunk will try them. */
  List<SpongeServerAddress> order() {
    return order(Set.of());
  }

  /**
   * Servers in the order the next copy will try them, leaving out those holding its other copies.
   */
  private List<SpongeServerAddress> order(Set<SpongeServerAddress> exclude) {
    return placement.order(exclude);
  }

  private static Set<SpongeServerAddress> serversOf(List<RemoteChunk> copies) {
    if (copies.isEmpty()) {
      return Set.of(); // the first copy, every chunk's path
    }
    Set<SpongeServerAddress> servers = new HashSet<>();
    for (RemoteChunk c : copies) {
      servers.add(c.server());
    }
    return servers;
  }

  /**
   * Tries the servers in {@link #order()}, once per copy; empty when none had room for every copy.
   * Throws only when every server tried for the first copy failed with an error (none merely full),
   * so that the cause reaches the caller if no later tier can take the chunk either.
   */
  @Override
  public synchronized Optional<StoredChunk> store(ByteBuffer data) throws IOException {
    List<RemoteChunk> copies = new ArrayList<>();
    while (copies.size() < replicas) {
      Optional<RemoteChunk> copy;
      try {
        copy = storeOne(data, serversOf(copies));
      } catch (IOException e) {
        if (copies.isEmpty()) {
          throw e;
        }
        copy = Optional.empty(); // each failed server was logged as it failed
      }
      if (copy.isEmpty()) {
        if (!copies.isEmpty()) {
          shortfall(copies);
        }
        return Optional.empty();
      }
      copies.add(copy.get());
    }
    return Optional.of(new StoredChunk.Remote(copies, tier));
  }

  private Optional<RemoteChunk> storeOne(ByteBuffer data, Set<SpongeServerAddress> exclude)
      throws IOException {
    IOException failures = null;
    boolean anyFull = false;
    for (SpongeServerAddress server : order(exclude)) {
      placement.begin(server);
      try {
        Optional<RemoteChunk> chunk = remote.store(server, data.duplicate());
        if (chunk.isPresent()) {
          placement.end(server, Outcome.STORED, chunk.get().loadWhenStored());
          held.add(chunk.get());
          return chunk;
        }
        placement.end(server, Outcome.FULL);
        countStale();
        anyFull = true;
      } catch (IOException | RuntimeException e) {
        placement.end(server, Outcome.FAILED);
        if (e instanceof RuntimeException r) {
          throw r;
        }
        countServerError();
        LOG.warn(
            "sponge server {} failed to store a chunk; not using it for this file again",
            server,
            e);
        if (failures == null) {
          failures = storeFailed(server, e);
        } else {
          failures.addSuppressed(e);
        }
      }
    }
    IOException none = noCopyStored(failures, anyFull);
    if (none != null) {
      throw none;
    }
    return Optional.empty();
  }

  /** Records a server's store failure as this file's first, if it is. */
  private synchronized IOException storeFailed(SpongeServerAddress server, Throwable cause) {
    IOException e =
        new IOException("sponge server " + server + " failed: " + cause.getMessage(), cause);
    if (firstStoreFailure == null) {
      firstStoreFailure = e;
    }
    return e;
  }

  /**
   * Why a copy tried every server it had and stored nothing, as the error to raise, or null when it
   * is "no room" (a server said it was full, or there were none): the copy's own failures when no
   * server was full; when it had no server left to try at all, the failure that dropped one earlier
   * for this file (pipelined chunks learn of a dead server from one another).
   */
  private synchronized IOException noCopyStored(IOException failures, boolean anyFull) {
    if (anyFull) {
      return null;
    }
    if (failures != null) {
      return failures;
    }
    return firstStoreFailure == null
        ? null
        : new IOException(
            "no sponge server left for this file; " + firstStoreFailure.getMessage(),
            firstStoreFailure);
  }

  /** Frees the copies a chunk got before its next copy found no server; the chunk moves on. */
  private void shortfall(List<RemoteChunk> copies) {
    metrics.replicaShortfall();
    synchronized (this) {
      held.removeAll(copies);
    }
    for (RemoteChunk c : copies) {
      try {
        remote.free(c);
      } catch (IOException e) {
        // Still held by the server: keep it on the list releaseAll frees at the end.
        synchronized (this) {
          held.add(c);
        }
        LOG.warn("could not free {} on {} after a replica shortfall", c, c.server(), e);
      }
    }
  }

  /**
   * The pipelined {@link #store}: the chunk is sent to the first server in {@link #order()} and
   * this returns; a refusal or failure moves on to the next server (on {@code retries}) exactly as
   * {@link #store} does, so several chunks of the file can be on the wire to the same server at
   * once. Further copies are sent once the previous one is placed.
   */
  @Override
  public CompletableFuture<Optional<StoredChunk>> storeAsync(ByteBuffer data, Executor retries) {
    return copies(data, retries, List.of());
  }

  private CompletableFuture<Optional<StoredChunk>> copies(
      ByteBuffer data, Executor retries, List<RemoteChunk> have) {
    CompletableFuture<Optional<RemoteChunk>> next =
        attempt(data, retries, new Attempts(serversOf(have)));
    if (have.isEmpty()) {
      return next.thenCompose(c -> c.isPresent() ? more(data, retries, List.of(c.get())) : none());
    }
    return next.handle((c, error) -> error == null ? c : Optional.<RemoteChunk>empty())
        .thenCompose(
            c -> {
              if (c.isEmpty()) {
                shortfall(have);
                return none();
              }
              List<RemoteChunk> more = new ArrayList<>(have);
              more.add(c.get());
              return more(data, retries, more);
            });
  }

  private CompletableFuture<Optional<StoredChunk>> more(
      ByteBuffer data, Executor retries, List<RemoteChunk> have) {
    return have.size() >= replicas
        ? CompletableFuture.completedFuture(Optional.of(new StoredChunk.Remote(have, tier)))
        : copies(data, retries, have);
  }

  private static CompletableFuture<Optional<StoredChunk>> none() {
    return CompletableFuture.completedFuture(Optional.empty());
  }

  /** What the servers tried so far for one copy said. */
  private static final class Attempts {
    final Set<SpongeServerAddress> exclude;
    IOException failures;
    boolean anyFull;

    Attempts(Set<SpongeServerAddress> exclude) {
      this.exclude = exclude;
    }
  }

  private CompletableFuture<Optional<RemoteChunk>> attempt(
      ByteBuffer data, Executor retries, Attempts so) {
    SpongeServerAddress server;
    synchronized (this) {
      server = placement.first(so.exclude);
    }
    if (server == null) {
      IOException none = noCopyStored(so.failures, so.anyFull);
      return none != null
          ? CompletableFuture.failedFuture(none)
          : CompletableFuture.completedFuture(Optional.empty());
    }
    try {
      placement.begin(server);
    } catch (IOException e) {
      return CompletableFuture.failedFuture(e);
    }
    CompletableFuture<Optional<RemoteChunk>> sent;
    try {
      sent = remote.storeAsync(server, data.duplicate());
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e);
    }
    return sent.handle(
            (chunk, error) -> {
              // Outside this tier's lock: ending frees a place in the client's window, which a
              // store of another file may be waiting for.
              if (error == null && chunk.isPresent()) {
                placement.end(server, Outcome.STORED, chunk.get().loadWhenStored());
              } else {
                placement.end(server, error != null ? Outcome.FAILED : Outcome.FULL);
              }
              synchronized (this) {
                if (error == null && chunk.isPresent()) {
                  held.add(chunk.get());
                  return chunk;
                }
                if (error == null) {
                  countStale();
                  so.anyFull = true;
                } else {
                  Throwable cause =
                      error instanceof CompletionException && error.getCause() != null
                          ? error.getCause()
                          : error;
                  if (!(cause instanceof IOException)) {
                    throw cause instanceof RuntimeException r ? r : new CompletionException(cause);
                  }
                  countServerError();
                  LOG.warn(
                      "sponge server {} failed to store a chunk; not using it for this file again",
                      server,
                      cause);
                  if (so.failures == null) {
                    so.failures = storeFailed(server, cause);
                  } else {
                    so.failures.addSuppressed(cause);
                  }
                }
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

  /**
   * Reads the first copy whose server answers. With one copy a failure is the caller's, as in the
   * paper; with more, each failed copy is logged and the next one read.
   */
  @Override
  public void read(StoredChunk chunk, ByteBuffer dst) throws IOException {
    List<RemoteChunk> copies = ((StoredChunk.Remote) chunk).copies();
    if (copies.size() > 1 && !failedReads.isEmpty()) {
      copies = new ArrayList<>(copies);
      copies.sort(Comparator.comparing(c -> failedReads.contains(c.server())));
    }
    int position = dst.position();
    int limit = dst.limit();
    IOException failed = null;
    for (int i = 0; i < copies.size(); i++) {
      RemoteChunk copy = copies.get(i);
      try {
        dst.limit(limit).position(position);
        remote.read(copy, dst);
        if (failed != null) {
          metrics.replicaFailover();
        }
        return;
      } catch (IOException e) {
        failedReads.add(copy.server());
        placement.readFailed(copy.server());
        if (failed == null) {
          failed = e;
        } else {
          failed.addSuppressed(e);
        }
        if (i + 1 < copies.size()) {
          LOG.warn(
              "reading {} from {} failed ({}); reading its copy on {}",
              copy,
              copy.server(),
              e.getMessage(),
              copies.get(i + 1).server());
        }
      }
    }
    throw failed;
  }

  @Override
  public int releaseAll() throws IOException {
    List<RemoteChunk> chunks;
    synchronized (this) {
      chunks = new ArrayList<>(held);
      held.clear();
    }
    int freed = 0;
    IOFailures failures = new IOFailures();
    for (RemoteChunk c : chunks) {
      if (replicas > 1 && failedReads.contains(c.server())) {
        continue; // see failedReads
      }
      try {
        remote.free(c);
        freed++;
      } catch (IOException e) {
        failures.add(e);
      }
    }
    failures.throwIfAny();
    return freed;
  }
}
