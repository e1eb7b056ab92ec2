package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.ChannelFrames;
import dev.levee.sponge.protocol.ExchangeDeadline;
import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.MalformedFrameException;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.protocol.TimedChannel;
import dev.levee.sponge.protocol.WireTls;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one client connection, one frame at a time and in order, until the client closes it, goes
 * silent for the socket timeout, or sends something that loses frame sync. Requests may arrive
 * pipelined (a client sends the next before this one's reply); replies go back in request order.
 * Every bad request is answered with a typed error reply; only a frame whose length prefix cannot
 * be trusted (or that ends early) closes the connection, with a log line.
 *
 * <p>An ALLOCATE_WRITE's chunk bytes go from the socket straight into the allocated pool chunk, and
 * a READ reply is written from one direct buffer with a gathering write: no chunk is staged in a
 * {@code byte[]} on the server.
 *
 * <p>A connection holds no direct memory of its own: a READ borrows one of the server's {@link
 * TransferBuffers} for the length of its exchange, and each whole exchange (request in, reply out)
 * must finish within the frame timeout, so a peer trickling bytes cannot hold a thread forever.
 */
final class ConnectionHandler implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);
  private static final int DISCARD_BYTES = 64 * 1024;

  /** Peers choose what goes wrong; they must not also choose how much we log. */
  private static final ThrottledLog THROTTLED = new ThrottledLog(LOG, 10, TimeUnit.SECONDS);

  private final SocketChannel socket;
  private final int timeoutMillis;
  private final int frameTimeoutMillis;
  private final ChunkService service;
  private final TransferBuffers buffers;
  private final ConnectionAuth auth;
  private final WireTls tls;
  private final SpongeServerMetrics metrics;
  private final int maxFrameBytes;
  private final String peer;
  private final ByteBuffer fixedIn = ByteBuffer.allocate(ChannelFrames.FIXED_BYTES);
  private final ByteBuffer fixedOut = ByteBuffer.allocate(ChannelFrames.FIXED_BYTES);
  private final ByteBuffer fields = ByteBuffer.allocate(Frame.MAX_METADATA_BYTES);
  private ByteBuffer lent;
  private ByteBuffer discard;

  /** Told when a reply is out: the connection's first request ends its handshake budget. */
  private final Runnable firstRequestDone;

  /** How other threads close this connection; it learns the handler's channel. */
  private final ConnectionCloser closer;

  ConnectionHandler(
      SocketChannel socket,
      int timeoutMillis,
      int frameTimeoutMillis,
      ChunkService service,
      TransferBuffers buffers,
      ConnectionAuth auth,
      WireTls tls,
      SpongeServerMetrics metrics,
      Runnable firstRequestDone,
      ConnectionCloser closer) {
    this.firstRequestDone = firstRequestDone;
    this.closer = closer;
    this.auth = auth;
    this.tls = tls;
    this.socket = socket;
    this.timeoutMillis = timeoutMillis;
    this.frameTimeoutMillis = frameTimeoutMillis;
    this.service = service;
    this.buffers = buffers;
    this.metrics = metrics;
    this.maxFrameBytes = Frame.maxFrameBytes(service.chunkSize());
    this.peer = String.valueOf(socket.socket().getRemoteSocketAddress());
  }

  @Override
  public void run() {
    metrics.openConnections.incrementAndGet();
    try (TimedChannel ch = new TimedChannel(socket, timeoutMillis)) {
      closer.attach(ch);
      if (tls != null && !ch.acceptTls(tls.serverEngine(), frameTimeoutMillis)) {
        refusePlaintext(ch);
        return;
      }
      ExchangeDeadline exchange = new ExchangeDeadline(frameTimeoutMillis);
      ch.bound(exchange);
      while (!Thread.currentThread().isInterrupted()) {
        ChannelFrames.Head head;
        try {
          head = ChannelFrames.readHead(ch, fixedIn, maxFrameBytes);
        } catch (MalformedFrameException e) {
          metrics.protocolErrors.increment();
          THROTTLED.warn("unsynced", "closing sponge connection from {}: {}", peer, e.getMessage());
          send(ch, e.requestId(), Reply.error(e.status(), e.getMessage()));
          return;
        }
        if (head == null) {
          return;
        }
        IncomingPayload payload = new IncomingPayload(ch, head.payloadBytes(), fields);
        try {
          Reply reply = handle(head, payload);
          payload.discardRest(this::discardBuffer);
          if (isProtocolError(reply.status())) {
            metrics.protocolErrors.increment();
          }
          send(ch, head.requestId(), reply);
        } finally {
          giveBackBuffer();
        }
        exchange.end();
        firstRequestDone.run();
      }
    } catch (EOFException e) {
      metrics.protocolErrors.increment();
      THROTTLED.warn(
          "truncated",
          "closing sponge connection from {}: truncated frame (stream ended inside it)",
          peer);
    } catch (SocketTimeoutException e) {
      if (e.getMessage() != null && e.getMessage().contains("exchange deadline")) {
        metrics.exchangesTimedOut.increment();
        THROTTLED.warn("deadline", "closing sponge connection from {}: {}", peer, e.getMessage());
      } else {
        LOG.debug(
            "closing sponge connection from {}: idle or stalled longer than the socket timeout",
            peer);
      }
    } catch (SSLException e) {
      metrics.authenticationFailures.increment();
      THROTTLED.warn("tls", "TLS handshake with sponge client {} failed: {}", peer, e.getMessage());
    } catch (IOException e) {
      if (socket.isOpen()) {
        LOG.info("sponge connection from {} failed: {}", peer, e.toString());
      }
    } catch (InternalError e) {
      // SIGBUS on damaged pool memory is raised asynchronously, possibly outside handle(): end
      // this connection, not the server.
      LOG.error("closing sponge connection from {}: pool memory fault", peer, e);
    } finally {
      metrics.openConnections.decrementAndGet();
    }
  }

  /**
   * A plaintext client of a TLS server: its first request is read and dropped (so that closing does
   * not reset the connection before the client reads the reply) and answered, in plaintext, with
   * what to set.
   */
  private void refusePlaintext(TimedChannel ch) throws IOException {
    ch.bound(new ExchangeDeadline(frameTimeoutMillis));
    ChannelFrames.Head head;
    try {
      head = ChannelFrames.readHead(ch, fixedIn, maxFrameBytes);
    } catch (MalformedFrameException e) {
      metrics.protocolErrors.increment();
      return;
    }
    if (head == null) {
      return; // connected and closed: a port probe
    }
    ch.skip(head.payloadBytes(), discardBuffer());
    metrics.authenticationFailures.increment();
    THROTTLED.warn(
        "plaintext", "refusing a plaintext sponge connection from {}: TLS is required", peer);
    send(
        ch,
        head.requestId(),
        Reply.error(
            Status.UNAUTHENTICATED,
            "this sponge server requires TLS: set "
                + WireTls.ENABLED_KEY
                + "=true on the client, with a trust store that holds the server's certificate"
                + " or its CA"));
  }

  /**
   * Whether the peer runs on this host: over loopback, or from the very address it connected to (a
   * task reaching its node's server by the node's name). A TCP peer cannot fake either.
   */
  private boolean fromThisHost() {
    java.net.InetAddress remote = socket.socket().getInetAddress();
    return remote != null
        && (remote.isLoopbackAddress() || remote.equals(socket.socket().getLocalAddress()));
  }

  /**
   * @throws IOException only when reading the request's chunk bytes fails: the connection is
   *     unusable then
   */
  private Reply handle(ChannelFrames.Head head, IncomingPayload payload) throws IOException {
    if (head.version() != Frame.VERSION) {
      return Reply.error(
          Status.UNSUPPORTED_VERSION,
          "protocol version "
              + head.version()
              + " is not supported; this server speaks "
              + Frame.VERSION);
    }
    Optional<Op> op = Op.fromCode(head.code());
    if (op.isEmpty()) {
      return Reply.error(Status.UNKNOWN_OP, "unknown op code " + (head.code() & 0xff));
    }
    try {
      if (op.get() == Op.ALLOCATE_WRITE) {
        String refusal = auth.refusal(op.get(), actingApplication(op.get(), payload));
        if (refusal != null) {
          metrics.authenticationFailures.increment();
          return Reply.error(Status.UNAUTHENTICATED, refusal);
        }
        return service.allocateWrite(payload.fields(head.requestId()), payload);
      }
      if (payload.remaining() > Frame.MAX_METADATA_BYTES) {
        // Only ALLOCATE_WRITE carries bulk bytes: do not buffer a chunk's worth of junk to judge
        // it.
        return Reply.error(
            Status.BAD_REQUEST,
            op.get()
                + " request of "
                + payload.remaining()
                + " bytes; its fields take at most "
                + Frame.MAX_METADATA_BYTES);
      }
      if (op.get() == Op.CHALLENGE) {
        return auth.challenge(payload.whole(head.requestId()));
      }
      if (op.get() == Op.GRANT_SECRET) {
        Reply r = auth.grant(payload.whole(head.requestId()), fromThisHost());
        if (r.status() == Status.OK) {
          metrics.secretsGranted.increment();
        } else {
          metrics.authenticationFailures.increment();
        }
        return r;
      }
      if (op.get() == Op.AUTHENTICATE) {
        Reply r = auth.authenticate(payload.whole(head.requestId()));
        if (r.status() != Status.OK) {
          metrics.authenticationFailures.increment();
        }
        return r;
      }
      String refusal = auth.refusal(op.get(), actingApplication(op.get(), payload));
      if (refusal != null) {
        metrics.authenticationFailures.increment();
        return Reply.error(Status.UNAUTHENTICATED, refusal);
      }
      ByteBuffer buffer = null;
      if (op.get() == Op.READ) {
        buffer = borrowBuffer();
        if (buffer == null) {
          return Reply.error(
              Status.BUSY,
              "READ: all "
                  + buffers.count()
                  + " transfer buffers stayed in use for "
                  + frameTimeoutMillis / 2
                  + " ms");
        }
      }
      return service.serve(
          op.get(), payload.whole(head.requestId()), buffer, auth.provenApplication());
    } catch (MalformedFrameException e) {
      return Reply.error(e.status(), op.get() + ": " + e.getMessage());
    } catch (RuntimeException | InternalError e) {
      // A bug or a pool failure must cost one request, not the server or this connection. An
      // InternalError here is SIGBUS on pool memory (a truncated or damaged tmpfs file): the JVM
      // is fine, only that chunk is not.
      LOG.error("sponge server failed serving {} for {}", op.get(), peer, e);
      return Reply.error(Status.INTERNAL_ERROR, op.get() + " failed on the server: " + e);
    }
  }

  /**
   * The application a request acts for, read without consuming it: an allocation's own, or the
   * holder of the chunk a READ or FREE names; null when there is none or the fields do not decode
   * (the request's handler reports that).
   */
  private String actingApplication(Op op, IncomingPayload payload) {
    try {
      return switch (op) {
        case ALLOCATE_WRITE -> payload.peek().getString("application id");
        case READ, FREE -> {
          Payload fields = payload.peek();
          int index = fields.getInt("chunk index");
          yield service.applicationOf(
              index, Capability.of(fields.getBytes("capability", Capability.BYTES)));
        }
        default -> null;
      };
    } catch (MalformedFrameException e) {
      return null;
    }
  }

  private static boolean isProtocolError(Status s) {
    return s == Status.BAD_REQUEST
        || s == Status.UNKNOWN_OP
        || s == Status.UNSUPPORTED_VERSION
        || s == Status.FRAME_TOO_LARGE;
  }

  /**
   * A shared direct buffer for this exchange's READ reply (it goes from there to the socket without
   * another copy), or null if none came free in half the frame timeout.
   */
  private ByteBuffer borrowBuffer() {
    try {
      lent = buffers.acquire(frameTimeoutMillis / 2);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      lent = null;
    }
    return lent;
  }

  private void giveBackBuffer() {
    if (lent != null) {
      buffers.release(lent);
      lent = null;
    }
  }

  /**
   * Heap, not direct: dropping refused bytes is rare and not worth a direct buffer per connection
   * (the JDK's per-thread temporary buffer for it is freed when the thread ends).
   */
  private ByteBuffer discardBuffer() {
    if (discard == null) {
      discard = ByteBuffer.allocate(DISCARD_BYTES);
    }
    return discard;
  }

  private void send(TimedChannel ch, long requestId, Reply r) throws IOException {
    ChannelFrames.write(ch, fixedOut, r.status().code(), requestId, r.head(), r.body());
  }
}
