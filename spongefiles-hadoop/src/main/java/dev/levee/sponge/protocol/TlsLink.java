package dev.levee.sponge.protocol;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.ReentrantLock;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

/**
 * TLS records over the non-blocking channel of a {@link TimedChannel}. The channel's own waits
 * (per-wait timeout, exchange deadline, wake-up on close) bound every read and write here, so a TLS
 * connection times out exactly like a plaintext one.
 *
 * <p>As on a plaintext channel, one thread may read while another writes: the engine allows a wrap
 * and an unwrap at once, and the outbound lock keeps records in order on the socket. A handshake
 * message that arrives after the handshake (a TLS 1.3 key update) and needs an answer is answered
 * by the reader if no writer is busy, else by the writer before it lets go of the lock.
 */
final class TlsLink {
  /** What the owning channel provides: bounded waits, and notice that bytes came in. */
  interface Waits {
    void readable() throws IOException;

    void writable() throws IOException;

    /** Network bytes arrived (they may be part of a record not yet complete). */
    void progress();
  }

  private static final int CHANGE_CIPHER_SPEC = 20;
  private static final int APPLICATION_DATA = 23;

  private final SSLEngine engine;
  private final SocketChannel channel;
  private final Waits waits;
  private final ReentrantLock outbound = new ReentrantLock();
  private final ByteBuffer[] nothing = {ByteBuffer.allocate(0)};

  /** Received, not yet unwrapped (fill mode). Used by the reading thread only. */
  private ByteBuffer netIn;

  /** Decrypted, not yet delivered (drain mode). Used by the reading thread only. */
  private ByteBuffer appIn;

  /** Wrapped, not yet sent (drain mode). Guarded by {@link #outbound}. */
  private ByteBuffer netOut;

  private boolean inboundDone;

  /** A record of the peer's has been unwrapped: it speaks TLS. */
  private boolean peerSpokeTls;

  /**
   * @param alreadyRead bytes of the peer's first record already taken off the channel
   */
  TlsLink(SSLEngine engine, SocketChannel channel, Waits waits, ByteBuffer alreadyRead) {
    this.engine = engine;
    this.channel = channel;
    this.waits = waits;
    int packet = engine.getSession().getPacketBufferSize();
    this.netIn = ByteBuffer.allocate(Math.max(packet, alreadyRead.remaining()));
    netIn.put(alreadyRead);
    this.appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).flip();
    this.netOut = ByteBuffer.allocate(packet).flip();
  }

  /**
   * Runs the handshake to its end.
   *
   * @throws PlaintextReplyException when a client's peer answered with a plaintext sponge frame (a
   *     server without TLS, or one refusing the connection before its handshake)
   */
  void handshake() throws IOException {
    engine.beginHandshake();
    try {
      while (true) {
        switch (engine.getHandshakeStatus()) {
          case NEED_TASK -> runTasks();
          case NEED_WRAP -> {
            outbound.lock();
            try {
              wrapAndFlush(nothing);
            } finally {
              outbound.unlock();
            }
          }
          case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
            if (engine.getUseClientMode() && !peerSpokeTls) {
              refusePlaintextAnswer();
            }
            if (!unwrapOnce(null)) {
              throw new SSLHandshakeException(
                  "the peer closed the connection during the TLS handshake");
            }
            peerSpokeTls = true;
          }
          case FINISHED, NOT_HANDSHAKING -> {
            return;
          }
          default -> throw new SSLException("unexpected handshake state");
        }
      }
    } catch (SSLException e) {
      sendAlert();
      throw e;
    }
  }

  /**
   * Moves at least one decrypted byte into {@code dst}, waiting for the peer as needed.
   *
   * @return bytes moved, or -1 at the end of the stream
   */
  int read(ByteBuffer dst) throws IOException {
    while (!appIn.hasRemaining()) {
      if (inboundDone) {
        return -1;
      }
      if (dst.remaining() >= appIn.capacity()) {
        // Room for a whole record: decrypt straight into the caller's buffer (a pool chunk).
        int before = dst.position();
        if (!unwrapOnce(dst)) {
          return -1;
        }
        afterInboundHandshakeMessage();
        if (dst.position() > before) {
          return dst.position() - before;
        }
        continue;
      }
      if (!unwrapOnce(null)) {
        return -1;
      }
      afterInboundHandshakeMessage();
    }
    int n = Math.min(appIn.remaining(), dst.remaining());
    dst.put(appIn.slice(appIn.position(), n));
    appIn.position(appIn.position() + n);
    return n;
  }

  /**
   * Encrypts and sends every remaining byte of {@code srcs}: the engine reads them straight from
   * the caller's buffers (a mapped chunk, a direct transfer buffer), a record at a time.
   */
  void write(ByteBuffer[] srcs) throws IOException {
    outbound.lock();
    try {
      do {
        wrapAndFlush(srcs);
      } while (hasRemaining(srcs));
      while (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
        wrapAndFlush(nothing);
      }
    } finally {
      outbound.unlock();
    }
  }

  /** Best effort, never waits: a close_notify, so that the peer sees a clean end. */
  void closeQuietly() {
    engine.closeOutbound();
    flushWhatTheEngineHolds();
  }

  /**
   * Unwraps one record into {@code direct}, or into {@link #appIn} when null (or too small),
   * reading from the channel until one is complete.
   *
   * @return false at the end of the stream (with or without the peer's close_notify)
   */
  private boolean unwrapOnce(ByteBuffer direct) throws IOException {
    while (true) {
      SSLEngineResult r;
      netIn.flip();
      if (direct == null) {
        appIn.compact();
      }
      try {
        r = engine.unwrap(netIn, direct != null ? direct : appIn);
      } finally {
        netIn.compact();
        if (direct == null) {
          appIn.flip();
        }
      }
      switch (r.getStatus()) {
        case OK -> {
          return true;
        }
        case CLOSED -> {
          inboundDone = true;
          return false;
        }
        case BUFFER_OVERFLOW -> {
          if (direct != null) {
            direct = null; // the record is bigger than the caller's room after all
          } else {
            appIn = grown(appIn, engine.getSession().getApplicationBufferSize());
          }
        }
        case BUFFER_UNDERFLOW -> {
          if (!netIn.hasRemaining()) {
            netIn = grownForFill(netIn, engine.getSession().getPacketBufferSize());
          }
          if (readNetwork() < 0) {
            return false;
          }
        }
        default -> throw new SSLException("unexpected unwrap status " + r.getStatus());
      }
    }
  }

  private int readNetwork() throws IOException {
    while (true) {
      int n = channel.read(netIn);
      if (n > 0) {
        waits.progress();
        return n;
      }
      if (n < 0) {
        return -1;
      }
      waits.readable();
    }
  }

  /** A key update (or a ticket) read between records may ask for an answer. */
  private void afterInboundHandshakeMessage() throws IOException {
    HandshakeStatus hs = engine.getHandshakeStatus();
    if (hs == HandshakeStatus.NEED_TASK) {
      runTasks();
      hs = engine.getHandshakeStatus();
    }
    if (hs == HandshakeStatus.NEED_WRAP && outbound.tryLock()) {
      try {
        while (engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP) {
          wrapAndFlush(nothing);
        }
      } finally {
        outbound.unlock();
      }
    }
  }

  /** Caller holds {@link #outbound}; {@link #netOut} is empty on entry and on return. */
  private void wrapAndFlush(ByteBuffer[] srcs) throws IOException {
    while (true) {
      SSLEngineResult r;
      netOut.compact();
      try {
        r = engine.wrap(srcs, netOut);
      } finally {
        netOut.flip();
      }
      if (r.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
        netOut = grown(netOut, engine.getSession().getPacketBufferSize());
        continue;
      }
      flush();
      if (r.getStatus() == SSLEngineResult.Status.CLOSED) {
        throw new SSLException("the TLS connection is closed");
      }
      if (r.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
        runTasks();
      }
      return;
    }
  }

  private void flush() throws IOException {
    while (netOut.hasRemaining()) {
      if (channel.write(netOut) == 0) {
        waits.writable();
      }
    }
  }

  /** After a failed handshake the engine may hold an alert saying why: send it if it goes now. */
  private void sendAlert() {
    flushWhatTheEngineHolds();
  }

  /**
   * Wraps what the engine has to say on its own (a close_notify, an alert) and writes it once,
   * without waiting: the connection is ending either way, and its own failure, if any, is what the
   * caller reports.
   */
  private void flushWhatTheEngineHolds() {
    if (!outbound.tryLock()) {
      return;
    }
    try {
      netOut.compact();
      try {
        engine.wrap(nothing, netOut);
      } finally {
        netOut.flip();
      }
      channel.write(netOut);
    } catch (IOException | RuntimeException ignored) {
      // best effort
    } finally {
      outbound.unlock();
    }
  }

  private void runTasks() {
    Runnable task;
    while ((task = engine.getDelegatedTask()) != null) {
      task.run();
    }
  }

  /**
   * A server that does not speak TLS answers a ClientHello with a sponge error frame, and a TLS
   * server refusing a connection before its handshake (BUSY) does too: read it and say what it
   * said, rather than "unrecognized SSL message".
   */
  private void refusePlaintextAnswer() throws IOException {
    if (netIn.position() == 0 && readNetwork() < 0) {
      return; // the handshake reports the early end
    }
    int type = netIn.get(0) & 0xff;
    if (type >= CHANGE_CIPHER_SPEC && type <= APPLICATION_DATA) {
      return;
    }
    // The peer closes after its one frame: read until then, or until a whole frame is in.
    while (netIn.hasRemaining() && !holdsWholeFrame()) {
      if (readNetwork() < 0) {
        break;
      }
    }
    Frame f = null;
    try {
      f =
          FrameCodec.read(
              new DataInputStream(new ByteArrayInputStream(netIn.array(), 0, netIn.position())),
              netIn.capacity());
    } catch (IOException unreadable) {
      // not a sponge frame either
    }
    if (f == null) {
      throw new SSLException(
          "the peer answered the TLS handshake with "
              + netIn.position()
              + " bytes that are not TLS");
    }
    String message;
    try {
      message = new Payload(f.payload().duplicate(), f.requestId()).getString("message");
    } catch (MalformedFrameException e) {
      message = "(no message)";
    }
    throw new PlaintextReplyException(Status.fromCode(f.code()), message);
  }

  private boolean holdsWholeFrame() {
    return netIn.position() >= 4 && netIn.position() >= 4 + (long) netIn.getInt(0);
  }

  private static boolean hasRemaining(ByteBuffer[] bufs) {
    for (ByteBuffer b : bufs) {
      if (b.hasRemaining()) {
        return true;
      }
    }
    return false;
  }

  /** A drain-mode buffer with room for {@code atLeast} more bytes, contents kept. */
  private static ByteBuffer grown(ByteBuffer drain, int atLeast) {
    ByteBuffer b = ByteBuffer.allocate(drain.remaining() + atLeast);
    b.put(drain).flip();
    return b;
  }

  /** A fill-mode buffer with room for {@code atLeast} more bytes, contents kept. */
  private static ByteBuffer grownForFill(ByteBuffer fill, int atLeast) {
    ByteBuffer b = ByteBuffer.allocate(fill.position() + atLeast);
    fill.flip();
    b.put(fill);
    return b;
  }
}
