package dev.levee.sponge.remote.net;

import dev.levee.sponge.remote.SpongeServerAddress;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;

/** One blocking TCP connection to one sponge server; one call at a time. */
final class ServerConnection implements Closeable {
  private static final int BUFFER_BYTES = 64 * 1024;

  private final SpongeServerAddress server;
  private final Socket socket;
  private final DataInputStream in;
  private final DataOutputStream out;
  private final int maxFrameBytes;
  private long nextRequestId = 1;
  private long idleSinceNanos;

  ServerConnection(SpongeServerAddress server, ClientSettings settings) throws IOException {
    this.server = server;
    this.socket = new Socket();
    try {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(settings.readTimeoutMillis());
      socket.connect(new InetSocketAddress(server.host(), server.port()), settings.connectTimeoutMillis());
      this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), BUFFER_BYTES));
      this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), BUFFER_BYTES));
    } catch (IOException e) {
      socket.close();
      throw e;
    }
    this.maxFrameBytes = Frame.maxFrameBytes(settings.maxChunkBytes());
  }

  SpongeServerAddress server() {
    return server;
  }

  /** Sends one request and waits for its reply; any IOException leaves the connection unusable. */
  Frame call(Op op, ByteBuffer head, ByteBuffer body) throws IOException {
    long id = nextRequestId++;
    if (body == null) {
      FrameCodec.write(out, op.code(), id, head);
    } else {
      FrameCodec.write(out, op.code(), id, head, body);
    }
    out.flush();
    Frame reply = FrameCodec.read(in, maxFrameBytes);
    if (reply == null) {
      throw new IOException("sponge server " + server + " closed the connection before answering " + op);
    }
    if (reply.version() != Frame.VERSION) {
      throw new IOException("sponge server " + server + " answered with protocol version " + reply.version()
          + ", this client speaks " + Frame.VERSION);
    }
    if (reply.requestId() == 0 && reply.code() != Status.OK.code()) {
      // Errors raised before the server could read a request id (BUSY, an unusable frame) carry id 0.
      return reply;
    }
    if (reply.requestId() != id) {
      throw new IOException("sponge server " + server + " answered request " + reply.requestId()
          + " while request " + id + " was outstanding");
    }
    return reply;
  }

  void markIdle() {
    idleSinceNanos = System.nanoTime();
  }

  boolean idleTooLong() {
    return System.nanoTime() - idleSinceNanos > ClientSettings.MAX_IDLE_NANOS;
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing a socket we are abandoning; nothing left to do
    }
  }
}
