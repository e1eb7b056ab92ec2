package dev.levee.sponge.server;

import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.MalformedFrameException;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.Status;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongPredicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the sponge protocol does to the node's pool: every op on a decoded request payload, answered
 * with a {@link Reply}. Thread-safe; called from every connection thread.
 */
final class ChunkService {
  private static final Logger LOG = LoggerFactory.getLogger(ChunkService.class);

  private final SharedMemoryPool pool;
  private final ChunkGrants grants;
  private final int quotaChunksPerApplication;
  private final SpongeServerMetrics metrics;
  private final RemoteOwnerLeases remoteLeases;
  private volatile LongPredicate renewsHere = pid -> false;

  /**
   * ALLOCATE_WRITEs from their fields being read until their reply is made, over every connection:
   * the server's store queue, which each store reply reports (see {@link ServerLoad}).
   */
  private final AtomicInteger storesInProgress = new AtomicInteger();

  ChunkService(
      SharedMemoryPool pool,
      ChunkGrants grants,
      int quotaChunksPerApplication,
      SpongeServerMetrics metrics,
      RemoteOwnerLeases remoteLeases) {
    this.remoteLeases = remoteLeases;
    this.pool = pool;
    this.grants = grants;
    this.quotaChunksPerApplication = quotaChunksPerApplication;
    this.metrics = metrics;
  }

  int chunkSize() {
    return pool.chunkSize();
  }

  /**
   * Serves one request whose payload is all in memory. {@code readBuffer} is the connection's
   * chunk-sized scratch buffer for READ replies (valid until the reply is written).
   *
   * @param application the application the connection proved (null when unauthenticated): a RENEW
   *     then renews only an owner holding chunks of that application
   */
  Reply serve(Op op, Payload p, ByteBuffer readBuffer, String application)
      throws MalformedFrameException {
    return switch (op) {
      case ALLOCATE_WRITE -> {
        try {
          yield allocateWrite(p, ChunkBody.restOf(p));
        } catch (IOException e) {
          throw new UncheckedIOException(e); // an in-memory body cannot fail to read
        }
      }
      case READ -> read(p, readBuffer);
      case FREE -> free(p);
      case FREE_SPACE -> freeSpace(p);
      case IS_ALIVE -> isAlive(p);
      case CHALLENGE, AUTHENTICATE, GRANT_SECRET ->
          throw new IllegalStateException(op + " belongs to the connection, not the pool");
      case RENEW -> renew(p, application);
    };
  }

  /**
   * Allocates a chunk and fills it from {@code body}: the fields come from {@code p}, the chunk
   * bytes are read straight into the pool chunk (no staging copy), and only after the request
   * passed every check and the chunk exists. A refused request leaves {@code body} unread (its
   * caller drains it).
   *
   * @throws IOException when reading the body fails; the chunk and the quota reservation are given
   *     back first
   */
  Reply allocateWrite(Payload p, ChunkBody body) throws MalformedFrameException, IOException {
    storesInProgress.incrementAndGet();
    try {
      return allocateWriteCounted(p, body);
    } finally {
      storesInProgress.decrementAndGet();
    }
  }

  private Reply allocateWriteCounted(Payload p, ChunkBody body)
      throws MalformedFrameException, IOException {
    String app = p.getString("application id");
    long pid = p.getLong("owner pid");
    String host = p.getString("owner node");
    int length = p.getInt("data length");
    if (length < 0 || length > pool.chunkSize()) {
      return Reply.error(
          Status.BAD_REQUEST,
          "data length " + length + " is outside 0.." + pool.chunkSize() + " (the chunk size)");
    }
    if (body.remaining() != length) {
      return Reply.error(
          Status.BAD_REQUEST,
          "data length says " + length + " bytes but the frame carries " + body.remaining());
    }
    if (app.isEmpty()) {
      return Reply.error(Status.BAD_REQUEST, "application id must not be empty");
    }
    ChunkOwner owner;
    try {
      owner = new ChunkOwner(pid, host);
      checkOwnerNode(host);
    } catch (IllegalArgumentException e) {
      return Reply.error(Status.BAD_REQUEST, "bad owner: " + e.getMessage());
    }
    if (!grants.reserve(app, quotaChunksPerApplication)) {
      metrics.rejectionsQuota.increment();
      return Reply.error(
          Status.NO_ROOM,
          "application "
              + app
              + " already holds its quota of "
              + quotaChunksPerApplication
              + " chunks on this server");
    }
    OptionalInt chunk = pool.allocate(owner);
    if (chunk.isEmpty()) {
      grants.unreserve(app);
      metrics.rejectionsPoolFull.increment();
      return Reply.error(
          Status.NO_ROOM,
          pool.damage()
              .map(d -> "this server's pool is unusable: " + d)
              .orElse("no free chunk in this server's pool"));
    }
    int index = chunk.getAsInt();
    try {
      body.readInto(pool.chunkBuffer(index).limit(length));
    } catch (IOException | RuntimeException e) {
      pool.free(index, owner);
      grants.unreserve(app);
      throw e;
    }
    Capability cap = Capability.random();
    grants.grant(new ChunkGrants.Grant(index, cap, app, owner, length, System.nanoTime()));
    remoteLeases.stored(owner);
    metrics.allocations.increment();
    metrics.bytesIn.add(length);
    // This store still counts itself: what the client learns is the queue it leaves behind.
    ServerLoad load =
        new ServerLoad(Math.max(0, storesInProgress.get() - 1), Math.max(0, allocatableChunks()));
    ByteBuffer head = ByteBuffer.allocate(4 + Capability.BYTES + ServerLoad.BYTES);
    head.putInt(index).put(cap.bytes());
    load.put(head);
    return Reply.ok(head.flip());
  }

  private Reply read(Payload p, ByteBuffer readBuffer) throws MalformedFrameException {
    int index = p.getInt("chunk index");
    Capability cap = Capability.of(p.getBytes("capability", Capability.BYTES));
    p.expectEnd("READ");
    ChunkGrants.Grant g = grants.lookup(index, cap);
    if (g == null) {
      return denied(Op.READ, index);
    }
    readBuffer.clear();
    pool.read(index, g.length(), readBuffer);
    readBuffer.flip();
    // A chunk freed or collected while we copied may already hold someone else's bytes: never send
    // those. The pool's own owner entry is checked too: the grant table is this server's memory,
    // the pool is shared, and only an entry still naming the grant's owner proves the bytes are
    // the ones that owner wrote.
    if (!grants.isCurrent(g) || !g.owner().equals(pool.ownerOf(index))) {
      return denied(Op.READ, index);
    }
    metrics.bytesOut.add(g.length());
    return Reply.ok(ByteBuffer.allocate(4).putInt(g.length()).flip(), readBuffer);
  }

  private Reply free(Payload p) throws MalformedFrameException {
    int index = p.getInt("chunk index");
    Capability cap = Capability.of(p.getBytes("capability", Capability.BYTES));
    p.expectEnd("FREE");
    ChunkGrants.Grant g = grants.revoke(index, cap);
    if (g == null) {
      return denied(Op.FREE, index);
    }
    release(g);
    return Reply.okEmpty();
  }

  /**
   * The application holding {@code chunk} for a remote client if {@code capability} unlocks it,
   * else null: without the capability a caller learns nothing about who holds which index.
   */
  String applicationOf(int chunk, Capability capability) {
    ChunkGrants.Grant g = grants.lookup(chunk, capability);
    return g == null ? null : g.applicationId();
  }

  private Reply freeSpace(Payload p) throws MalformedFrameException {
    p.expectEnd("FREE_SPACE");
    metrics.freeSpaceRequests.increment();
    ByteBuffer head =
        ByteBuffer.allocate(12)
            .putInt(allocatableChunks())
            .putInt(pool.chunkCount())
            .putInt(pool.chunkSize())
            .flip();
    return Reply.ok(head);
  }

  /**
   * The free chunks this server would still allocate: none once its pool is out of service (its
   * directory or metadata deleted), so the tracker and clients stop sending it chunks.
   */
  private int allocatableChunks() {
    return pool.damage().isPresent() ? 0 : pool.freeChunks();
  }

  /**
   * Renews a remote owner's lease. Unauthenticated like the owner fields of ALLOCATE_WRITE: it can
   * only keep an owner that stored chunks here counted alive longer (never free anything), and the
   * NodeManager's stopApplication still frees its application's chunks.
   */
  private Reply renew(Payload p, String application) throws MalformedFrameException {
    long pid = p.getLong("owner pid");
    String host = p.getString("owner node");
    p.expectEnd("RENEW");
    try {
      checkOwnerNode(host);
      ChunkOwner owner = new ChunkOwner(pid, host);
      // An authenticated caller renews only its own application's owners: another application
      // could otherwise keep a dead owner's chunks, and their quota, pinned forever. The reply is
      // the same either way, so it tells nothing about other applications' owners.
      if (application == null || grants.holds(owner, application)) {
        remoteLeases.renew(owner);
      }
    } catch (IllegalArgumentException e) {
      return Reply.error(Status.BAD_REQUEST, "bad owner: " + e.getMessage());
    }
    return Reply.okEmpty();
  }

  /**
   * An owner's node must name a sponge server (host, or host:port with a valid port): the garbage
   * collector later asks that server whether the owner lives, and a name it cannot parse would
   * otherwise only fail there, in every round.
   */
  private static void checkOwnerNode(String host) {
    NodeNames.serverOf(host, 1);
  }

  /**
   * How IS_ALIVE tells that an owner of this node which never mapped the pool is alive: by the
   * lease it keeps with this server (set once the server knows its own node names).
   */
  void answerIsAliveFromLeases(LongPredicate renewsHere) {
    this.renewsHere = renewsHere;
  }

  RemoteOwnerLeases remoteOwnerLeases() {
    return remoteLeases;
  }

  private Reply isAlive(Payload p) throws MalformedFrameException {
    long pid = p.getLong("pid");
    p.expectEnd("IS_ALIVE");
    boolean alive;
    try {
      // The owner's lease in this node's pool first (namespace-independent); a task that never
      // attached the pool is judged by its pid, which excludes thread ids.
      alive =
          pid > 0
              && (pool.ownerLeaseHeld(pid)
                  || renewsHere.test(pid)
                  || new ChunkOwner(pid, "local").isAliveOnThisHost());
    } catch (IOException e) {
      alive = true; // cannot tell: never let the caller free a possibly live owner's chunks
    }
    return Reply.ok(ByteBuffer.allocate(1).put((byte) (alive ? 1 : 0)).flip());
  }

  /**
   * Frees every chunk an application holds here; the NodeManager calls this when the application
   * ends.
   */
  int releaseApplication(String applicationId) {
    List<ChunkGrants.Grant> revoked = grants.revokeApplication(applicationId);
    revoked.forEach(this::release);
    return revoked.size();
  }

  private void release(ChunkGrants.Grant g) {
    try {
      pool.free(g.chunk(), g.owner());
    } catch (IllegalStateException e) {
      // Collected by GC between revoke and free: the chunk is free (or someone else's) already.
      LOG.debug("chunk {} was no longer {}'s when freed: {}", g.chunk(), g.owner(), e.getMessage());
    }
  }

  private Reply denied(Op op, int index) {
    metrics.capabilityDenials.increment();
    return Reply.error(
        Status.NO_SUCH_CHUNK,
        op + " refused: chunk " + index + " is not held here under that capability");
  }
}
