package dev.levee.sponge.client;

import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.ServerListSource;
import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.MalformedFrameException;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.ServerLoad;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link RemoteMemory} over the sponge TCP protocol. Thread-safe: each synchronous call borrows a
 * pooled connection to its server, so the SpongeFile's async writer and its prefetcher can talk to
 * the same server at once; pipelined stores ({@link #storeAsync}) share one connection per server,
 * several chunks in flight on it. Chunk bytes move between the socket and the caller's buffer with
 * no copy in user space when the buffer is direct (a SpongeFile's staging and prefetch buffers
 * are).
 *
 * <p>Also the probe the servers themselves use: {@link #freeSpace} for the memory tracker and
 * {@link #isAlive} for remote-owner garbage collection.
 */
public final class SpongeClient implements RemoteMemory {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeClient.class);

  private final ClientIdentity identity;
  private final ServerListSource serverList;
  private final ClientSettings settings;
  private final Map<SpongeServerAddress, Deque<ServerConnection>> idle = new ConcurrentHashMap<>();

  /** One pipelined store connection per server; guarded by itself. */
  private final Map<SpongeServerAddress, StorePipeline> pipelines = new HashMap<>();

  private volatile boolean closed;

  private final OwnerLeaseRenewer leases =
      new OwnerLeaseRenewer(this::renewOwnerLease, ClientSettings.OWNER_LEASE_RENEW_MILLIS);

  public SpongeClient(
      ClientIdentity identity, ServerListSource serverList, ClientSettings settings) {
    this.identity = Objects.requireNonNull(identity, "identity");
    this.serverList = Objects.requireNonNull(serverList, "serverList");
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  public ClientIdentity identity() {
    return identity;
  }

  /**
   * The tracker's list without this client's own node (its memory is the local sponge, reached
   * directly), same rack first; within a rack the tracker's order (most free chunks first) is kept.
   */
  @Override
  public List<SpongeServerAddress> serversWithFreeChunks() throws IOException {
    List<SpongeServerAddress> out = new ArrayList<>();
    for (ServerListEntry e : serverHints()) {
      out.add(e.address());
    }
    return out;
  }

  /** {@link #serversWithFreeChunks} with the tracker's free counts: one read of the list. */
  @Override
  public List<ServerListEntry> serverHints() throws IOException {
    List<ServerListEntry> out = new ArrayList<>();
    for (ServerListEntry e : serverList.serversWithFreeChunks()) {
      if (!NodeNames.sameNode(e.address(), identity.ownerNode())) {
        out.add(e);
      }
    }
    String rack = identity.rack();
    if (rack != null) {
      out.sort(Comparator.comparingInt(e -> rack.equals(e.address().rack()) ? 0 : 1));
    }
    return out;
  }

  @Override
  public Optional<RemoteChunk> store(SpongeServerAddress server, ByteBuffer data)
      throws IOException {
    int length = data.remaining();
    Frame reply = call(server, Op.ALLOCATE_WRITE, allocateWriteFields(length), data);
    Optional<RemoteChunk> chunk = storeReply(server, length, reply);
    chunk.ifPresent(c -> leases.holdsChunksOn(server));
    data.position(data.limit());
    return chunk;
  }

  /**
   * Sends the store on this client's pipeline to {@code server} (one connection per server, shared
   * by every file of this client) and returns at once; {@code data} has been written to the socket
   * when this returns and its position does not move. A request that fails because the connection
   * broke fails with an IOException naming the server and the request; the next store opens a new
   * connection.
   */
  @Override
  public CompletableFuture<Optional<RemoteChunk>> storeAsync(
      SpongeServerAddress server, ByteBuffer data) {
    int length = data.remaining();
    ByteBuffer head;
    StorePipeline pipeline;
    try {
      head = allocateWriteFields(length);
      pipeline = pipeline(server);
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    String what = Op.ALLOCATE_WRITE + " of a " + length + "-byte chunk";
    return pipeline
        .send(head, data, what)
        .thenApply(
            reply -> {
              try {
                Optional<RemoteChunk> chunk = storeReply(server, length, reply);
                chunk.ifPresent(c -> leases.holdsChunksOn(server));
                return chunk;
              } catch (IOException e) {
                throw new CompletionException(e);
              }
            });
  }

  private ByteBuffer allocateWriteFields(int length) {
    if (length > settings.maxChunkBytes()) {
      throw new IllegalArgumentException(
          "chunk of " + length + " bytes exceeds the chunk size " + settings.maxChunkBytes());
    }
    ByteBuffer head =
        ByteBuffer.allocate(
            Payload.stringBytes(identity.applicationId())
                + 8
                + Payload.stringBytes(identity.ownerNode())
                + 4);
    Payload.putString(head, identity.applicationId());
    head.putLong(identity.pid());
    Payload.putString(head, identity.ownerNode());
    head.putInt(length);
    return head.flip();
  }

  private static Optional<RemoteChunk> storeReply(
      SpongeServerAddress server, int length, Frame reply) throws IOException {
    Status status = Status.fromCode(reply.code());
    if (status == Status.NO_ROOM) {
      LOG.debug("sponge server {} has no room: {}", server, message(reply));
      return Optional.empty();
    }
    Payload p = expectOk(server, Op.ALLOCATE_WRITE, reply);
    int index = p.getInt("chunk index");
    Capability cap = Capability.of(p.getBytes("capability", Capability.BYTES));
    return Optional.of(new RemoteChunkHandle(server, index, cap, length, ServerLoad.read(p)));
  }

  private StorePipeline pipeline(SpongeServerAddress server) throws IOException {
    synchronized (pipelines) {
      if (closed) {
        throw new IOException("sponge client is closed");
      }
      StorePipeline p = pipelines.get(server);
      if (p != null && p.usable()) {
        return p;
      }
      if (p != null) {
        p.close();
      }
      try {
        p = new StorePipeline(server, settings);
      } catch (IOException e) {
        pipelines.remove(server);
        throw cannotConnect(server, e);
      }
      pipelines.put(server, p);
      return p;
    }
  }

  @Override
  public void read(RemoteChunk chunk, ByteBuffer dst) throws IOException {
    RemoteChunkHandle h = handle(chunk);
    if (dst.remaining() < h.length()) {
      throw new IllegalArgumentException(
          "buffer has " + dst.remaining() + " bytes left, " + h + " needs " + h.length());
    }
    try {
      ByteBuffer ref = chunkRef(h);
      // The chunk bytes go from the socket straight into dst; only an error reply comes back as a
      // frame.
      Frame error =
          exchange(
              h.server(),
              Op.READ,
              c -> c.receiveChunk(c.send(Op.READ, ref, null), dst, h.length()));
      if (error != null) {
        expectOk(h.server(), Op.READ, error);
        throw new IOException(
            "sponge server " + h.server() + " answered READ with OK but no chunk");
      }
    } catch (IOException e) {
      throw new IOException("cannot read " + h + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void free(RemoteChunk chunk) throws IOException {
    RemoteChunkHandle h = handle(chunk);
    try {
      Frame reply = call(h.server(), Op.FREE, chunkRef(h), null);
      if (Status.fromCode(reply.code()) == Status.NO_SUCH_CHUNK) {
        // Already reclaimed (the server restarted or its GC judged us dead): the memory is free
        // either way.
        // Per chunk, and a restarted server makes every chunk of a task say so: DEBUG.
        LOG.debug("{} was already gone when freed: {}", h, message(reply));
        return;
      }
      expectOk(h.server(), Op.FREE, reply);
    } catch (RemoteReplyException e) {
      throw new IOException("cannot free " + h + ": " + e.getMessage(), e);
    } catch (IOException e) {
      // Per chunk (a hostile review saw thousands of lines for one gone server): DEBUG.
      LOG.debug(
          "{} not freed, its server is unreachable (its memory went with it): {}", h, e.toString());
    }
  }

  /**
   * A connection that could not be set up. A server that answered its handshake with a refusal (a
   * wrong or missing secret, BUSY) stays a {@link RemoteReplyException}, so callers tell it from an
   * unreachable server: a free treats only the latter as done (the memory went with the server).
   */
  private static IOException cannotConnect(SpongeServerAddress server, IOException e) {
    String message = "cannot connect to sponge server " + server + ": ";
    return e instanceof RemoteReplyException r
        ? new RemoteReplyException(r.status(), message + r.getMessage(), r)
        : new IOException(message + e, e);
  }

  /** Free and total chunks of one server. */
  public FreeSpace freeSpace(SpongeServerAddress server) throws IOException {
    Frame reply = call(server, Op.FREE_SPACE, ByteBuffer.allocate(0), null);
    Payload p = expectOk(server, Op.FREE_SPACE, reply);
    return new FreeSpace(p.getInt("free chunks"), p.getInt("total chunks"), p.getInt("chunk size"));
  }

  /** Asks {@code server} whether {@code pid} is alive on its host. */
  public boolean isAlive(SpongeServerAddress server, long pid) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(8).putLong(pid).flip();
    Frame reply = call(server, Op.IS_ALIVE, head, null);
    return expectOk(server, Op.IS_ALIVE, reply).getByte("alive") != 0;
  }

  /**
   * Asks this node's own {@code server} for the application's cluster-derived secret ({@link
   * Op#GRANT_SECRET}); this client's connections must have proved the job's own secret.
   *
   * @throws IOException naming the server's reason when it refuses (no cluster secret there, or
   *     this client did not prove the job's secret)
   */
  public byte[] grantSecret(SpongeServerAddress server) throws IOException {
    Payload reply =
        expectOk(
            server, Op.GRANT_SECRET, call(server, Op.GRANT_SECRET, ByteBuffer.allocate(0), null));
    byte[] secret = reply.getBytes("secret", Handshake.PROOF_BYTES);
    reply.expectEnd("GRANT_SECRET reply");
    return secret;
  }

  /**
   * Renews this owner's lease with {@code server} (see {@link Op#RENEW}); done every {@link
   * ClientSettings#OWNER_LEASE_RENEW_MILLIS} for every server this client stored a chunk on.
   */
  public void renewOwnerLease(SpongeServerAddress server) throws IOException {
    ByteBuffer head = ByteBuffer.allocate(8 + Payload.stringBytes(identity.ownerNode()));
    head.putLong(identity.pid());
    Payload.putString(head, identity.ownerNode());
    expectOk(server, Op.RENEW, call(server, Op.RENEW, head.flip(), null));
  }

  /** Renews this owner's lease now with every server that holds a chunk of it. */
  public void renewOwnerLeases() {
    leases.renewAll();
  }

  @Override
  public void close() {
    leases.close();
    synchronized (pipelines) {
      closed = true;
      pipelines.values().forEach(StorePipeline::close);
      pipelines.clear();
    }
    for (Deque<ServerConnection> q : idle.values()) {
      synchronized (q) {
        q.forEach(ServerConnection::close);
        q.clear();
      }
    }
  }

  private Frame call(SpongeServerAddress server, Op op, ByteBuffer head, ByteBuffer body)
      throws IOException {
    return exchange(server, op, c -> c.call(op, head, body));
  }

  /** One request/reply on a pooled connection to {@code server}. */
  private interface Exchange<T> {
    T on(ServerConnection c) throws IOException;
  }

  private <T> T exchange(SpongeServerAddress server, Op op, Exchange<T> x) throws IOException {
    if (closed) {
      throw new IOException("sponge client is closed");
    }
    ServerConnection pooled = takeIdle(server);
    if (pooled != null) {
      try {
        return exchangeOn(pooled, x);
      } catch (IOException e) {
        // A pooled connection the server has since closed (idle timeout, restart) fails before the
        // server reads
        // the request, so one retry on a fresh connection is safe; a dead server fails that too.
        LOG.debug(
            "pooled connection to {} failed on {} ({}); retrying on a new one",
            server,
            op,
            e.toString());
      }
    }
    ServerConnection fresh;
    try {
      fresh = new ServerConnection(server, settings);
    } catch (IOException e) {
      throw cannotConnect(server, e);
    }
    return exchangeOn(fresh, x);
  }

  private <T> T exchangeOn(ServerConnection c, Exchange<T> x) throws IOException {
    T result;
    try {
      result = x.on(c);
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
    giveBack(c);
    return result;
  }

  private ServerConnection takeIdle(SpongeServerAddress server) {
    // get, not computeIfAbsent: a server never reached (any name a caller passes) gets no entry.
    Deque<ServerConnection> q = idle.get(server);
    if (q == null) {
      return null;
    }
    synchronized (q) {
      ServerConnection c;
      while ((c = q.pollFirst()) != null) {
        if (!c.idleTooLong()) {
          return c;
        }
        c.close();
      }
    }
    return null;
  }

  private void giveBack(ServerConnection c) {
    Deque<ServerConnection> q = idle.computeIfAbsent(c.server(), s -> new ArrayDeque<>());
    synchronized (q) {
      if (!closed && q.size() < settings.idleConnectionsPerServer()) {
        c.markIdle();
        q.addFirst(c);
        return;
      }
    }
    c.close();
  }

  private static Payload expectOk(SpongeServerAddress server, Op op, Frame reply)
      throws IOException {
    Status status = Status.fromCode(reply.code());
    if (status != Status.OK) {
      throw new RemoteReplyException(
          status,
          "sponge server "
              + server
              + " answered "
              + op
              + " with "
              + status
              + ": "
              + message(reply));
    }
    return new Payload(reply.payload(), reply.requestId());
  }

  private static String message(Frame reply) {
    try {
      return new Payload(reply.payload().duplicate(), reply.requestId()).getString("message");
    } catch (MalformedFrameException e) {
      return "(no message)";
    }
  }

  private static ByteBuffer chunkRef(RemoteChunkHandle h) {
    return ByteBuffer.allocate(4 + Capability.BYTES)
        .putInt(h.index())
        .put(h.capability().bytes())
        .flip();
  }

  private static RemoteChunkHandle handle(RemoteChunk chunk) {
    if (chunk instanceof RemoteChunkHandle h) {
      return h;
    }
    throw new IllegalArgumentException("not a chunk of this remote memory: " + chunk);
  }

  /** A server's answer to FREE_SPACE. */
  public record FreeSpace(int freeChunks, int totalChunks, int chunkSize) {}
}
