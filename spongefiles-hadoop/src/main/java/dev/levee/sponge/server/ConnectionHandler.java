package dev.levee.sponge.server;

import dev.levee.sponge.remote.net.Frame;
import dev.levee.sponge.remote.net.FrameCodec;
import dev.levee.sponge.remote.net.MalformedFrameException;
import dev.levee.sponge.remote.net.Op;
import dev.levee.sponge.remote.net.Payload;
import dev.levee.sponge.remote.net.Status;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Serves one client connection, one frame at a time, until the client closes it, goes silent for the socket
 * timeout, or sends something that loses frame sync. Every bad request is answered with a typed error reply; only
 * a frame whose length prefix cannot be trusted (or that ends early) closes the connection, with a log line.
 */
final class ConnectionHandler implements Runnable {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);
  private static final int BUFFER_BYTES = 64 * 1024;

  private final Socket socket;
  private final ChunkService service;
  private final SpongeServerMetrics metrics;
  private final int maxFrameBytes;
  private final String peer;
  private ByteBuffer readBuffer;

  ConnectionHandler(Socket socket, ChunkService service, SpongeServerMetrics metrics) {
    this.socket = socket;
    this.service = service;
    this.metrics = metrics;
    this.maxFrameBytes = Frame.maxFrameBytes(service.chunkSize());
    this.peer = String.valueOf(socket.getRemoteSocketAddress());
  }

  @Override
  public void run() {
    metrics.openConnections.incrementAndGet();
    try (socket) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES));
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES));
      while (!Thread.currentThread().isInterrupted()) {
        Frame frame;
        try {
          frame = FrameCodec.read(in, maxFrameBytes);
        } catch (MalformedFrameException e) {
          metrics.protocolErrors.increment();
          LOG.warn("closing sponge connection from {}: {}", peer, e.getMessage());
          send(out, e.requestId(), Reply.error(e.status(), e.getMessage()));
          return;
        }
        if (frame == null) {
          return;
        }
        Reply reply = handle(frame);
        if (isProtocolError(reply.status())) {
          metrics.protocolErrors.increment();
        }
        send(out, frame.requestId(), reply);
      }
    } catch (EOFException e) {
      metrics.protocolErrors.increment();
      LOG.warn("closing sponge connection from {}: truncated frame (stream ended inside it)", peer);
    } catch (SocketTimeoutException e) {
      LOG.info("closing sponge connection from {}: idle or stalled longer than the socket timeout", peer);
    } catch (IOException e) {
      if (!socket.isClosed()) {
        LOG.info("sponge connection from {} failed: {}", peer, e.toString());
      }
    } finally {
      metrics.openConnections.decrementAndGet();
    }
  }

  private Reply handle(Frame frame) {
    if (frame.version() != Frame.VERSION) {
      return Reply.error(Status.UNSUPPORTED_VERSION,
          "protocol version " + frame.version() + " is not supported; this server speaks " + Frame.VERSION);
    }
    Optional<Op> op = Op.fromCode(frame.code());
    if (op.isEmpty()) {
      return Reply.error(Status.UNKNOWN_OP, "unknown op code " + (frame.code() & 0xff));
    }
    try {
      return service.serve(op.get(), new Payload(frame.payload(), frame.requestId()), readBuffer());
    } catch (MalformedFrameException e) {
      return Reply.error(e.status(), op.get() + ": " + e.getMessage());
    } catch (RuntimeException e) {
      // A bug or a pool failure must cost one request, not the server or this connection.
      LOG.error("sponge server failed serving {} for {}", op.get(), peer, e);
      return Reply.error(Status.INTERNAL_ERROR, op.get() + " failed on the server: " + e);
    }
  }

  private static boolean isProtocolError(Status s) {
    return s == Status.BAD_REQUEST || s == Status.UNKNOWN_OP || s == Status.UNSUPPORTED_VERSION
        || s == Status.FRAME_TOO_LARGE;
  }

  private ByteBuffer readBuffer() {
    if (readBuffer == null) {
      readBuffer = ByteBuffer.allocate(service.chunkSize());
    }
    return readBuffer;
  }

  private static void send(DataOutputStream out, long requestId, Reply r) throws IOException {
    if (r.body() == null) {
      FrameCodec.write(out, r.status().code(), requestId, r.head());
    } else {
      FrameCodec.write(out, r.status().code(), requestId, r.head(), r.body());
    }
    out.flush();
  }
}
