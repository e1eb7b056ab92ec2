package dev.levee.sponge.server;

import dev.levee.sponge.config.ServerLimits;
import dev.levee.sponge.protocol.ChannelFrames;
import dev.levee.sponge.protocol.FrameCodec;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.protocol.WireTls;
import java.io.Closeable;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Deque;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sponge server's TCP front end: an acceptor thread and at most {@code maxConnections}
 * connections, each on a thread of its own (threads of evicted connections may briefly outnumber
 * them while they unwind). Blocking I/O with one thread per connection is enough here: clients keep
 * a few long-lived connections and move whole megabyte chunks, so threads are few and busy. A
 * connection beyond the limit gets a BUSY reply and is closed; with TLS too that reply goes in
 * plaintext before any handshake, so that refusing costs the acceptor no handshake.
 *
 * <p>Slots go fairly to addresses while connections are still in their handshake (issue 28, S2:
 * sockets from ten addresses trickling a ClientHello and reconnecting held all 64 slots). When
 * every slot is taken, a newcomer whose address holds fewer connections in their handshake than the
 * address holding the most takes the slot of that address's oldest such connection. A well-formed
 * client finishes its handshake in milliseconds, so it is never the one evicted and always gets in
 * while peers trickle; peers that trickle share what is left among their addresses. Connections
 * past their first request are never evicted: a server full of working clients still says BUSY.
 */
final class SpongeServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeServer.class);

  private final ChunkService service;
  private final SpongeServerMetrics metrics;
  private final ServerSocketChannel serverSocket;
  private final ThreadPoolExecutor workers;
  private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
  private final int socketTimeoutMillis;
  private final int frameTimeoutMillis;
  private final int handshakeTimeoutMillis;
  private final PeerConnections peers;

  /** Connections that have not finished their first request, oldest first. */
  private final Deque<Pending> pending = new ConcurrentLinkedDeque<>();

  /**
   * A connection in its handshake, how to end that handshake by closing it (false when its first
   * request finished meanwhile), and its slot.
   */
  private record Pending(InetAddress peer, BooleanSupplier evict, Slot slot) {}

  /**
   * Connection slots. A slot is a permit, not a thread: an evicted connection hands its permit to
   * the newcomer at once, and its thread unwinds beside the newcomer's (it sees its socket closed
   * within milliseconds). Waiting on the acceptor for that thread to return to the pool held every
   * connection behind it in the kernel's backlog: a crowd arriving while slow peers held the slots
   * got 57-166 answers later than its 5 s (sponge-fuzz at 09e5a30 and a67956b).
   */
  private final Semaphore slots;

  private final int maxConnections;

  /** Closes connections that have not finished their first request within the handshake budget. */
  private final ScheduledThreadPoolExecutor handshakeCutter;

  private final ApplicationSecrets secrets;
  private final boolean authRequired;
  private final TransferBuffers buffers;
  private final WireTls tls;
  private final ThrottledLog throttled = new ThrottledLog(LOG, 10, TimeUnit.SECONDS);
  private final Thread acceptor;
  private volatile boolean closed;

  SpongeServer(
      String bindHost,
      int port,
      int maxConnections,
      int socketTimeoutMillis,
      ServerLimits limits,
      ApplicationSecrets secrets,
      boolean authRequired,
      WireTls tls,
      ChunkService service,
      SpongeServerMetrics metrics)
      throws IOException {
    this.tls = tls;
    this.service = service;
    this.metrics = metrics;
    this.socketTimeoutMillis = socketTimeoutMillis;
    this.frameTimeoutMillis = limits.frameTimeoutMillis();
    this.secrets = secrets;
    this.authRequired = authRequired;
    this.handshakeTimeoutMillis = limits.handshakeTimeoutMillis();
    this.peers = new PeerConnections(limits.maxConnectionsPerPeer(), limits.maxHandshakesPerPeer());
    this.buffers = new TransferBuffers(limits.transferBuffers(), service.chunkSize());
    metrics.transferBuffers(buffers);
    this.serverSocket = ServerSocketChannel.open();
    try {
      serverSocket.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      // Set on the listener so that accepted sockets start with it (and the window scale it needs).
      serverSocket.setOption(
          StandardSocketOptions.SO_RCVBUF, ChannelFrames.socketBufferBytes(service.chunkSize()));
      serverSocket.bind(new InetSocketAddress(InetAddress.getByName(bindHost), port), 128);
    } catch (IOException e) {
      serverSocket.close();
      throw new IOException(
          "sponge server cannot listen on " + bindHost + ":" + port + ": " + e.getMessage(), e);
    }
    int localPort = port();
    AtomicInteger n = new AtomicInteger();
    this.maxConnections = maxConnections;
    this.slots = new Semaphore(maxConnections);
    // Threads beyond the slots are only ever evicted connections still unwinding.
    this.workers =
        new ThreadPoolExecutor(
            maxConnections,
            2 * maxConnections,
            30,
            TimeUnit.SECONDS,
            new SynchronousQueue<>(),
            r -> daemon(r, "sponge-conn-" + localPort + "-" + n.incrementAndGet()));
    workers.allowCoreThreadTimeOut(true);
    this.acceptor = daemon(this::acceptLoop, "sponge-acceptor-" + localPort);
    this.handshakeCutter =
        new ScheduledThreadPoolExecutor(1, r -> daemon(r, "sponge-handshake-cut-" + localPort));
    // Most connections finish at once: do not keep their cancelled cut-offs queued for the budget.
    handshakeCutter.setRemoveOnCancelPolicy(true);
  }

  void start() {
    acceptor.start();
  }

  int port() {
    return serverSocket.socket().getLocalPort();
  }

  private void acceptLoop() {
    while (!closed) {
      SocketChannel s;
      try {
        s = serverSocket.accept();
      } catch (IOException e) {
        if (!closed) {
          // e.g. out of file descriptors: back off instead of spinning, and keep listening
          LOG.error("sponge server accept failed; still listening", e);
          pause(100);
        }
        continue;
      }
      InetAddress peer = s.socket().getInetAddress();
      if (!peers.tryOpen(peer)) {
        refuseBusy(
            s,
            peers.handshakesFull(peer)
                ? "server busy: "
                    + peers.maxHandshakesPerPeer()
                    + " connections from "
                    + peer.getHostAddress()
                    + " have not finished their first request"
                : "server busy: "
                    + peers.maxPerPeer()
                    + " connections from "
                    + peer.getHostAddress()
                    + " already open");
        continue;
      }
      // Ends the connection's handshake count once: at its first reply, at the cut, or at close.
      AtomicBoolean handshakeOver = new AtomicBoolean();
      ConnectionCloser closer = new ConnectionCloser(s);
      Slot slot = new Slot();
      ScheduledFuture<?> cut =
          handshakeCutter.schedule(
              () -> {
                if (handshakeOver.compareAndSet(false, true)) {
                  peers.handshakeOver(peer);
                  metrics.exchangesTimedOut.increment();
                  throttled.warn(
                      "handshake",
                      "closing sponge connection from {}: no first request within the {} ms"
                          + " handshake budget",
                      peer.getHostAddress(),
                      handshakeTimeoutMillis);
                  closer.close();
                }
              },
              handshakeTimeoutMillis,
              TimeUnit.MILLISECONDS);
      Runnable firstRequestDone =
          () -> {
            if (handshakeOver.compareAndSet(false, true)) {
              cut.cancel(false);
              peers.handshakeOver(peer);
            }
          };
      Pending inHandshake =
          new Pending(
              peer,
              () -> {
                if (!handshakeOver.compareAndSet(false, true)) {
                  return false; // it finished its first request meanwhile: not a slow peer
                }
                cut.cancel(false);
                peers.handshakeOver(peer);
                closer.close();
                return true;
              },
              slot);
      pending.addLast(inHandshake);
      Runnable handshakeDone =
          () -> {
            firstRequestDone.run();
            pending.remove(inHandshake);
          };
      try {
        // Replies are small and end a request: never hold them back for Nagle.
        s.setOption(StandardSocketOptions.TCP_NODELAY, true);
        s.setOption(
            StandardSocketOptions.SO_SNDBUF, ChannelFrames.socketBufferBytes(service.chunkSize()));
        open.add(s);
        Runnable connection =
            () -> {
              try {
                new ConnectionHandler(
                        s,
                        socketTimeoutMillis,
                        frameTimeoutMillis,
                        service,
                        buffers,
                        new ConnectionAuth(secrets, authRequired),
                        tls,
                        metrics,
                        handshakeDone,
                        closer)
                    .run();
              } finally {
                open.remove(s);
                handshakeDone.run();
                peers.close(peer);
                slot.release();
              }
            };
        if (!startOrEvict(connection, peer, slot)) {
          handshakeDone.run();
          peers.close(peer);
          refuseBusy(s, "server busy: " + maxConnections + " connections open");
        }
      } catch (IOException e) {
        handshakeDone.run();
        peers.close(peer);
        slot.release();
        open.remove(s);
        closeQuietly(s);
      }
    }
  }

  /**
   * Starts {@code connection} on a free slot. With none free, closes the oldest connection still in
   * its handshake of the address holding the most such connections, if that is more than {@code
   * peer} holds (its new connection included), and starts {@code connection} on the slot that
   * frees. False when no slot could be had. Never waits: the acceptor must keep draining the
   * backlog.
   */
  private boolean startOrEvict(Runnable connection, InetAddress peer, Slot slot) {
    if (!slots.tryAcquire()) {
      Optional<InetAddress> heaviest = peers.mostHandshakingAbove(peers.handshaking(peer));
      if (heaviest.isEmpty() || !evictOldest(heaviest.get())) {
        return false;
      }
      metrics.handshakesEvicted.increment();
      throttled.warn(
          "evict",
          "sponge server full: closed the oldest of {}'s connections still in their handshake"
              + " to serve {}",
          heaviest.get().getHostAddress(),
          peer.getHostAddress());
    }
    slot.hold();
    try {
      workers.execute(connection);
      return true;
    } catch (RejectedExecutionException tooManyUnwinding) {
      slot.release();
      return false;
    }
  }

  /** True when the oldest in-handshake connection of {@code peer} was closed and gave its slot. */
  private boolean evictOldest(InetAddress peer) {
    for (Pending p : pending) {
      if (p.peer().equals(peer) && p.evict().getAsBoolean()) {
        pending.remove(p);
        // Its thread may have finished on its own just before and be returning its permit: then
        // take that one (it comes back at once; the wait bounds the race, not an unwinding).
        return p.slot().handOver() || acquireReleased();
      }
    }
    return false;
  }

  private boolean acquireReleased() {
    try {
      return slots.tryAcquire(10, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** One connection's claim on a slot: released once, or handed over once to a newcomer. */
  private final class Slot {
    private final AtomicBoolean held = new AtomicBoolean();

    void hold() {
      held.set(true);
    }

    void release() {
      if (held.compareAndSet(true, false)) {
        slots.release();
      }
    }

    /** True when this slot was held and now belongs to the caller, not to the semaphore. */
    boolean handOver() {
      return held.compareAndSet(true, false);
    }
  }

  private void refuseBusy(SocketChannel s, String m) {
    open.remove(s);
    metrics.connectionsRefused.increment();
    throttled.warn("busy", "sponge server refusing {}: {}", s.socket().getRemoteSocketAddress(), m);
    try (s) {
      ByteBuffer head = ByteBuffer.allocate(Payload.stringBytes(m));
      Payload.putString(head, m);
      DataOutputStream out = new DataOutputStream(s.socket().getOutputStream());
      FrameCodec.write(out, Status.BUSY.code(), 0, head.flip());
      out.flush();
    } catch (IOException ignored) {
      // the refused client is gone already
    }
  }

  @Override
  public void close() {
    closed = true;
    closeQuietly(serverSocket);
    open.forEach(SpongeServer::closeQuietly);
    workers.shutdownNow();
    handshakeCutter.shutdownNow();
    try {
      acceptor.join(5000);
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // shutting down
    }
  }
}
