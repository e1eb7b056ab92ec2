package dev.levee.sponge.client;

import dev.levee.sponge.protocol.ChannelFrames;
import dev.levee.sponge.protocol.Frame;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.MalformedFrameException;
import dev.levee.sponge.protocol.Op;
import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.PlaintextReplyException;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.Status;
import dev.levee.sponge.protocol.TimedChannel;
import dev.levee.sponge.protocol.WireTls;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLException;

/**
 * One TCP connection to one sponge server. Requests may be pipelined: {@link #send} writes a
 * request and returns without its reply, and {@link #receive} takes the replies in the order the
 * requests were sent (the server serves a connection's requests in order). Sending is for one
 * thread at a time, and so is receiving, but a sender and a receiver may run at once. Any
 * IOException leaves the connection unusable.
 */
final class ServerConnection implements Closeable {
  private final SpongeServerAddress server;
  private final TimedChannel channel;
  private final int maxFrameBytes;
  private final ByteBuffer fixedOut = ByteBuffer.allocate(ChannelFrames.FIXED_BYTES);
  private final ByteBuffer fixedIn = ByteBuffer.allocate(ChannelFrames.FIXED_BYTES);
  private long nextRequestId = 1;
  private long idleSinceNanos;

  ServerConnection(SpongeServerAddress server, ClientSettings settings) throws IOException {
    this.server = server;
    SocketChannel ch = SocketChannel.open();
    try {
      // A request ends with the last bytes of a chunk and waits for a small reply: never hold
      // either back.
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      int buffer = ChannelFrames.socketBufferBytes(settings.maxChunkBytes());
      ch.setOption(StandardSocketOptions.SO_SNDBUF, buffer);
      ch.setOption(
          StandardSocketOptions.SO_RCVBUF, buffer); // before connecting: it sets the window scale
      ch.socket()
          .connect(
              new InetSocketAddress(server.host(), server.port()), settings.connectTimeoutMillis());
      this.channel = new TimedChannel(ch, settings.readTimeoutMillis());
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    this.maxFrameBytes = Frame.maxFrameBytes(settings.maxChunkBytes());
    try {
      if (settings.tls() != null) {
        startTls(settings.tls(), settings.readTimeoutMillis());
      }
      if (settings.credential() != null) {
        authenticate(settings.credential());
      }
    } catch (IOException | RuntimeException e) {
      close();
      throw e;
    }
  }

  /** The TLS handshake, within one read timeout; its failures say which setting to look at. */
  private void startTls(WireTls tls, int timeoutMillis) throws IOException {
    try {
      channel.connectTls(tls.clientEngine(server.host(), server.port()), timeoutMillis);
    } catch (PlaintextReplyException e) {
      if (e.status() == Status.BUSY) {
        throw new RemoteReplyException(
            Status.BUSY, "sponge server " + server + " answered with BUSY: " + e.serverMessage());
      }
      throw new IOException(
          "sponge server "
              + server
              + " does not speak TLS, which this client requires ("
              + WireTls.ENABLED_KEY
              + "=true); it answered in plaintext: "
              + e.serverMessage(),
          e);
    } catch (SSLException e) {
      throw new IOException(
          "TLS handshake with sponge server "
              + server
              + " failed: "
              + e.getMessage()
              + " (this client trusts "
              + tls.trustSource()
              + ")",
          e);
    }
  }

  /** The {@link Handshake}: a fresh nonce from the server, then the proof over it. */
  private void authenticate(Handshake.Credential c) throws IOException {
    Frame challenge = call(Op.CHALLENGE, ByteBuffer.allocate(0), null);
    ByteBuffer nonce = expectOk(challenge, Op.CHALLENGE);
    if (nonce.remaining() != Handshake.NONCE_BYTES) {
      throw new IOException(
          "sponge server " + server + " sent a " + nonce.remaining() + "-byte nonce");
    }
    byte[] n = new byte[Handshake.NONCE_BYTES];
    nonce.get(n);
    expectOk(call(Op.AUTHENTICATE, Handshake.authenticateRequest(c, n), null), Op.AUTHENTICATE);
  }

  private ByteBuffer expectOk(Frame reply, Op op) throws IOException {
    Status status = Status.fromCode(reply.code());
    if (status == Status.OK) {
      return reply.payload();
    }
    String message;
    try {
      message = new Payload(reply.payload().duplicate(), reply.requestId()).getString("message");
    } catch (MalformedFrameException e) {
      message = "(no message)";
    }
    throw new RemoteReplyException(
        status, "sponge server " + server + " answered " + op + " with " + status + ": " + message);
  }

  SpongeServerAddress server() {
    return server;
  }

  /** Sends one request and waits for its reply. */
  Frame call(Op op, ByteBuffer head, ByteBuffer body) throws IOException {
    return receive(send(op, head, body), op);
  }

  /**
   * Writes one request ({@code head} then {@code body}, which may be null; neither is moved)
   * without waiting for its reply; returns its request id.
   */
  long send(Op op, ByteBuffer head, ByteBuffer body) throws IOException {
    long id = nextRequestId++;
    ChannelFrames.write(channel, fixedOut, op.code(), id, head, body);
    return id;
  }

  /** Reads the next reply, which must answer request {@code id}. */
  Frame receive(long id, Op op) throws IOException {
    ChannelFrames.Head head = receiveHead(id, op);
    ByteBuffer payload = ByteBuffer.allocate(head.payloadBytes());
    channel.readFully(payload, false);
    return new Frame(head.version(), head.code(), head.requestId(), payload.flip());
  }

  /**
   * Reads the reply to READ request {@code id}: on success its chunk bytes go straight into {@code
   * dst} (which must have room for {@code expectedLength}) and null is returned; any other reply is
   * returned whole.
   */
  Frame receiveChunk(long id, ByteBuffer dst, int expectedLength) throws IOException {
    ChannelFrames.Head head = receiveHead(id, Op.READ);
    if (head.code() != Status.OK.code() || head.payloadBytes() != 4 + expectedLength) {
      if (head.code() == Status.OK.code()) {
        throw new IOException(
            "sponge server "
                + server
                + " sent a READ reply of "
                + (head.payloadBytes() - 4)
                + " chunk bytes, expected "
                + expectedLength);
      }
      ByteBuffer payload = ByteBuffer.allocate(head.payloadBytes());
      channel.readFully(payload, false);
      return new Frame(head.version(), head.code(), head.requestId(), payload.flip());
    }
    ByteBuffer length = ByteBuffer.allocate(4);
    channel.readFully(length, false);
    if (length.getInt(0) != expectedLength) {
      throw new IOException(
          "sponge server "
              + server
              + " declared a chunk of "
              + length.getInt(0)
              + " bytes, expected "
              + expectedLength);
    }
    ByteBuffer into = dst.slice(dst.position(), expectedLength);
    channel.readFully(into, false);
    dst.position(dst.position() + expectedLength);
    return null;
  }

  private ChannelFrames.Head receiveHead(long id, Op op) throws IOException {
    ChannelFrames.Head head;
    try {
      head = ChannelFrames.readHead(channel, fixedIn, maxFrameBytes);
    } catch (MalformedFrameException e) {
      throw new IOException(
          "sponge server " + server + " sent an unusable reply to " + op + ": " + e.getMessage(),
          e);
    }
    if (head == null) {
      throw new IOException(
          "sponge server " + server + " closed the connection before answering " + op);
    }
    if (head.version() != Frame.VERSION) {
      throw new IOException(
          "sponge server "
              + server
              + " answered with protocol version "
              + head.version()
              + ", this client speaks "
              + Frame.VERSION);
    }
    if (head.requestId() == 0 && head.code() != Status.OK.code()) {
      // Errors raised before the server could read a request id (BUSY, an unusable frame) carry id
      // 0.
      return head;
    }
    if (head.requestId() != id) {
      throw new IOException(
          "sponge server "
              + server
              + " answered request "
              + head.requestId()
              + " while request "
              + id
              + " was outstanding");
    }
    return head;
  }

  void markIdle() {
    idleSinceNanos = System.nanoTime();
  }

  boolean idleTooLong() {
    return System.nanoTime() - idleSinceNanos > ClientSettings.MAX_IDLE_NANOS;
  }

  @Override
  public void close() {
    channel.close();
  }
}
