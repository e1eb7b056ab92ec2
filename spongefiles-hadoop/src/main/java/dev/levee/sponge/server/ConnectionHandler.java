package dev.levee.sponge.server;

import dev.levee.sponge.protocol.ChannelFrames;
import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.MalformedFrameException;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.protocol.TimedChannel;
import java.io.EOFException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Optional;
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
 */
final class ConnectionHandler implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);
  private static final int DISCARD_BYTES = 64 * 1024;

  private final SocketChannel socket;
  private final int timeoutMillis;
  private final ChunkService service;
  private final SpongeServerMetrics metrics;
  private final int maxFrameBytes;
  private final String peer;
  private final ByteBuffer fixedIn = ByteBuffer.allocate(ChannelFrames.FIXED_BYTES);
  private final ByteBuffer fixedOut = ByteBuffer.allocate(ChannelFrames.FIXED_BYTES);
  private final ByteBuffer fields = ByteBuffer.allocate(Frame.MAX_METADATA_BYTES);
  private ByteBuffer readBuffer;
  private ByteBuffer discard;

  ConnectionHandler(
      SocketChannel socket, int timeoutMillis, ChunkService service, SpongeServerMetrics metrics) {
    this.socket = socket;
    this.timeoutMillis = timeoutMillis;
    this.service = service;
    this.metrics = metrics;
    this.maxFrameBytes = Frame.maxFrameBytes(service.chunkSize());
    this.peer = String.valueOf(socket.socket().getRemoteSocketAddress());
  }

  @Override
  public void run() {
    metrics.openConnections.incrementAndGet();
    try (TimedChannel ch = new TimedChannel(socket, timeoutMillis)) {
      while (!Thread.currentThread().isInterrupted()) {
        ChannelFrames.Head head;
        try {
          head = ChannelFrames.readHead(ch, fixedIn, maxFrameBytes);
        } catch (MalformedFrameException e) {
          metrics.protocolErrors.increment();
          LOG.warn("closing sponge connection from {}: {}", peer, e.getMessage());
          send(ch, e.requestId(), Reply.error(e.status(), e.getMessage()));
          return;
        }
        if (head == null) {
          return;
        }
        IncomingPayload payload = new IncomingPayload(ch, head.payloadBytes(), fields);
        Reply reply = handle(head, payload);
        payload.discardRest(discardBuffer());
        if (isProtocolError(reply.status())) {
          metrics.protocolErrors.increment();
        }
        send(ch, head.requestId(), reply);
      }
    } catch (EOFException e) {
      metrics.protocolErrors.increment();
      LOG.warn("closing sponge connection from {}: truncated frame (stream ended inside it)", peer);
    } catch (SocketTimeoutException e) {
      LOG.info(
          "closing sponge connection from {}: idle or stalled longer than the socket timeout",
          peer);
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
        return service.allocateWrite(payload.fields(head.requestId()), payload);
      }
      return service.serve(op.get(), payload.whole(head.requestId()), readBuffer());
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

  private static boolean isProtocolError(Status s) {
    return s == Status.BAD_REQUEST
        || s == Status.UNKNOWN_OP
        || s == Status.UNSUPPORTED_VERSION
        || s == Status.FRAME_TOO_LARGE;
  }

  /** Direct, so that a READ reply goes from it to the socket without another copy. */
  private ByteBuffer readBuffer() {
    if (readBuffer == null) {
      readBuffer = ByteBuffer.allocateDirect(service.chunkSize());
    }
    return readBuffer;
  }

  private ByteBuffer discardBuffer() {
    if (discard == null) {
      discard = ByteBuffer.allocateDirect(DISCARD_BYTES);
    }
    return discard;
  }

  private void send(TimedChannel ch, long requestId, Reply r) throws IOException {
    ChannelFrames.write(ch, fixedOut, r.status().code(), requestId, r.head(), r.body());
  }
}
