package dev.levee.piranha.transport;

import dev.levee.piranha.AbortSignal;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exchange.ReceiveStore;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child task's listener: accepts its parents' push connections, authenticates each one ({@link
 * ChannelAuth}), and feeds their runs into the task's {@link ReceiveStore}; a stream's end is
 * acknowledged only once the store holds it.
 *
 * <p>Hostile or broken input never takes the listener down: a connection that does not
 * authenticate, or sends anything but well-formed frames before it does, gets an ERROR frame and is
 * closed, and the listener keeps accepting. A stream from an authenticated parent that breaks
 * (malformed frame, wrong counts, early end) aborts the run, because this task's input can no
 * longer be complete.
 */
public final class PushServer implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(PushServer.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final ServerSocket server;
  private final String host;
  private final ChannelAuth auth;
  private final TaskId self;
  private final ReceiveStore store;
  private final AbortSignal abort;
  private final int maxFrame;
  private final int handshakeTimeoutMs;
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger rejected = new AtomicInteger();
  private final Thread acceptor;
  private volatile boolean closed;

  private PushServer(
      ServerSocket server,
      String host,
      ChannelAuth auth,
      TaskId self,
      ReceiveStore store,
      AbortSignal abort,
      int maxFrame,
      int handshakeTimeoutMs) {
    this.server = server;
    this.host = host;
    this.auth = auth;
    this.self = self;
    this.store = store;
    this.abort = abort;
    this.maxFrame = maxFrame;
    this.handshakeTimeoutMs = handshakeTimeoutMs;
    this.acceptor = new Thread(this::acceptLoop, "piranha-push-accept-" + self);
    acceptor.setDaemon(true);
  }

  /**
   * Binds a port in {@code ports} on every interface and starts accepting; {@code host} is the name
   * parents use to reach this task.
   */
  public static PushServer start(
      PortRange ports,
      String host,
      ChannelAuth auth,
      TaskId self,
      ReceiveStore store,
      AbortSignal abort,
      int maxFrame,
      int handshakeTimeoutMs)
      throws IOException {
    ServerSocket socket = bind(ports);
    PushServer s =
        new PushServer(socket, host, auth, self, store, abort, maxFrame, handshakeTimeoutMs);
    abort.onAbort(reason -> s.close());
    s.acceptor.start();
    return s;
  }

  private static ServerSocket bind(PortRange ports) throws IOException {
    if (ports.any()) {
      ServerSocket s = new ServerSocket();
      s.bind(new InetSocketAddress(0), 128);
      return s;
    }
    for (int p = ports.low(); p <= ports.high(); p++) {
      ServerSocket s = new ServerSocket();
      try {
        s.bind(new InetSocketAddress(p), 128);
        return s;
      } catch (BindException e) {
        s.close();
      }
    }
    throw new BindException(
        "no free port in levee.piranha.transport.ports=" + ports + " for a Piranha push server");
  }

  public Endpoint endpoint() {
    return new Endpoint(host, server.getLocalPort());
  }

  /** Connections refused so far (bad handshake, garbage, unknown parent). */
  public int rejected() {
    return rejected.get();
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException ignored) {
      // closing
    }
    for (Socket s : open) {
      try {
        s.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }

  private void acceptLoop() {
    while (!closed) {
      Socket s;
      try {
        s = server.accept();
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("push server of {} stopped accepting: {}", self, e.toString());
        }
        return;
      }
      open.add(s);
      Thread t =
          new Thread(() -> serve(s), "piranha-push-" + self + "-" + THREADS.incrementAndGet());
      t.setDaemon(true);
      t.start();
    }
  }

  private void serve(Socket socket) {
    ReceiveStore.Incoming incoming = null;
    boolean ended = false;
    FrameCodec.Writer writer = null;
    String peer = String.valueOf(socket.getRemoteSocketAddress());
    try {
      socket.setTcpNoDelay(true);
      socket.setSoTimeout(handshakeTimeoutMs);
      FrameCodec.Reader reader =
          new FrameCodec.Reader(
              new BufferedInputStream(socket.getInputStream(), 64 << 10), maxFrame);
      writer = new FrameCodec.Writer(new BufferedOutputStream(socket.getOutputStream(), 8 << 10));
      byte[] nonce = ChannelAuth.newNonce();
      writer.control(FrameType.CHALLENGE).putBytes(nonce).send();
      writer.flush();

      TaskId from = handshake(reader, nonce, peer);
      try {
        incoming = store.open(from);
      } catch (IllegalStateException e) {
        refuse(writer, e.getMessage());
        abort.abort("task " + self + " refused " + from + ": " + e.getMessage());
        return;
      }
      writer.control(FrameType.WELCOME).send();
      writer.flush();
      // Parents may compute for long between runs: liveness comes from ZooKeeper and this task's
      // input deadline, not from a read timeout here.
      socket.setSoTimeout(0);
      peer = from.toString();
      while (true) {
        Frame f = reader.read();
        if (f == null) {
          if (!ended) {
            throw new IOException("the stream from " + from + " ended before its END frame");
          }
          return;
        }
        if (ended) {
          throw new FrameException(f.type() + " frame from " + from + " after its END");
        }
        switch (f.type()) {
          case RUN_START -> {
            Frame.PayloadReader p = f.reader();
            boolean sorted = p.readBoolean();
            p.end();
            incoming.startRun(sorted);
          }
          case DATA -> incoming.append(f.payload(), 0, f.length());
          case RUN_END -> {
            Frame.PayloadReader p = f.reader();
            long records = p.readLong();
            long bytes = p.readLong();
            p.end();
            incoming.endRun(records, bytes);
          }
          case END -> {
            Frame.PayloadReader p = f.reader();
            long records = p.readLong();
            long bytes = p.readLong();
            int runs = p.readInt();
            p.end();
            incoming.checkEnd(records, bytes, runs);
            // Acknowledge before completing: completing the last parent lets this task finish
            // and close every connection, which would race the acknowledgement.
            writer.control(FrameType.ACK).putLong(records).putLong(bytes).send();
            writer.flush();
            ended = true;
            incoming.complete();
          }
          case ERROR -> {
            Frame.PayloadReader p = f.reader();
            throw new IOException("parent " + from + " reported: " + p.readString(2048));
          }
          default ->
              throw new FrameException(
                  "unexpected " + f.type() + " frame from parent " + from + " during its stream");
        }
      }
    } catch (Unauthenticated e) {
      rejected.incrementAndGet();
      LOG.warn("push server of {} refused a connection from {}: {}", self, peer, e.getMessage());
      refuse(writer, e.getMessage());
    } catch (IOException | RuntimeException e) {
      if (incoming != null && !ended) {
        incoming.discard();
        if (!closed) {
          refuse(writer, e.getMessage());
          abort.abort("the stream from " + peer + " to " + self + " broke: " + e.getMessage());
        }
      } else if (incoming == null) {
        rejected.incrementAndGet();
        if (!closed) {
          LOG.warn("push server of {} dropped a connection from {}: {}", self, peer, e.toString());
          refuse(writer, e.getMessage());
        }
      }
    } finally {
      open.remove(socket);
      try {
        socket.close();
      } catch (IOException ignored) {
        // closing
      }
    }
  }

  private TaskId handshake(FrameCodec.Reader reader, byte[] nonce, String peer) throws IOException {
    Frame hello;
    try {
      hello = reader.read();
    } catch (FrameException e) {
      throw new Unauthenticated("no valid HELLO: " + e.getMessage());
    } catch (SocketException | java.net.SocketTimeoutException e) {
      throw new Unauthenticated("no HELLO within " + handshakeTimeoutMs + " ms: " + e);
    }
    if (hello == null) {
      throw new Unauthenticated("closed before its HELLO");
    }
    if (hello.type() != FrameType.HELLO) {
      throw new Unauthenticated("sent " + hello.type() + " instead of HELLO");
    }
    Frame.PayloadReader p = hello.reader();
    String runId;
    int attempt;
    TaskId from;
    TaskId to;
    byte[] mac;
    try {
      runId = p.readString(256);
      attempt = p.readInt();
      int fs = p.readInt();
      int fp = p.readInt();
      int ts = p.readInt();
      int tp = p.readInt();
      mac = p.readBytes(ChannelAuth.MAC_BYTES);
      p.end();
      if (fs < 0 || fp < 0 || ts < 0 || tp < 0) {
        throw new FrameException("HELLO frame names a negative task id");
      }
      from = new TaskId(fs, fp);
      to = new TaskId(ts, tp);
    } catch (FrameException e) {
      throw new Unauthenticated(e.getMessage());
    }
    if (!runId.equals(auth.runId()) || attempt != auth.attempt()) {
      throw new Unauthenticated(
          "HELLO for run "
              + runId
              + " attempt "
              + attempt
              + "; this is run "
              + auth.runId()
              + " attempt "
              + auth.attempt());
    }
    if (!to.equals(self)) {
      throw new Unauthenticated("HELLO addressed to " + to + "; this is " + self);
    }
    if (!auth.verify(nonce, from, to, mac)) {
      throw new Unauthenticated(
          "HELLO from " + from + " does not carry the run's secret (HMAC mismatch)");
    }
    if (!store.expected().contains(from)) {
      throw new Unauthenticated(
          "task " + from + " is not a parent of " + self + " (expected " + store.expected() + ")");
    }
    return from;
  }

  private void refuse(FrameCodec.Writer writer, String reason) {
    if (writer == null) {
      return;
    }
    try {
      writer.control(FrameType.ERROR).putString(String.valueOf(reason)).send();
      writer.flush();
    } catch (IOException ignored) {
      // The peer is gone; nothing to tell.
    }
  }

  /** A connection that never proved it belongs to this run. */
  private static final class Unauthenticated extends IOException {
    Unauthenticated(String message) {
      super(message);
    }
  }
}
