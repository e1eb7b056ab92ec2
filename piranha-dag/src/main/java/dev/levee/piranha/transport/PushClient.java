package dev.levee.piranha.transport;

import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exchange.Run;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A parent's connection to one child task: handshake, runs, and the end of the stream, which the
 * child acknowledges only once it holds everything. Writes block while the child is busy storing
 * (back-pressure); every read (challenge, welcome, acknowledgement) is bounded by the transport
 * timeout.
 */
public final class PushClient implements Closeable {
  private final Socket socket;
  private final FrameCodec.Reader reader;
  private final FrameCodec.Writer writer;
  private final TaskId from;
  private final TaskId to;
  private final int maxFrame;
  private final byte[] chunk;
  private long records;
  private long bytes;
  private int runs;

  private PushClient(Socket socket, TaskId from, TaskId to, int maxFrame) throws IOException {
    this.socket = socket;
    this.from = from;
    this.to = to;
    this.maxFrame = maxFrame;
    this.chunk = new byte[maxFrame];
    this.reader = new FrameCodec.Reader(new BufferedInputStream(socket.getInputStream()), 4096);
    this.writer =
        new FrameCodec.Writer(new BufferedOutputStream(socket.getOutputStream(), 128 << 10));
  }

  /** Connects and authenticates; fails with the child's reason if it refuses. */
  public static PushClient connect(
      Endpoint endpoint, ChannelAuth auth, TaskId from, TaskId to, int timeoutMs, int maxFrame)
      throws IOException {
    Socket s = new Socket();
    try {
      s.setTcpNoDelay(true);
      s.setSoTimeout(timeoutMs);
      s.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), timeoutMs);
      PushClient c = new PushClient(s, from, to, maxFrame);
      Frame challenge = c.expect(FrameType.CHALLENGE);
      Frame.PayloadReader p = challenge.reader();
      byte[] nonce = p.readBytes(ChannelAuth.NONCE_BYTES);
      p.end();
      c.writer
          .control(FrameType.HELLO)
          .putString(auth.runId())
          .putInt(auth.attempt())
          .putInt(from.stage())
          .putInt(from.partition())
          .putInt(to.stage())
          .putInt(to.partition())
          .putBytes(auth.sign(nonce, from, to))
          .send();
      c.writer.flush();
      c.expect(FrameType.WELCOME).reader().end();
      return c;
    } catch (IOException | RuntimeException e) {
      s.close();
      throw new IOException(
          "cannot push from " + from + " to " + to + " at " + endpoint + ": " + e.getMessage(), e);
    }
  }

  public TaskId to() {
    return to;
  }

  /** Streams one run. */
  public void send(Run run) throws IOException {
    writer.control(FrameType.RUN_START).putBoolean(run.sorted()).send();
    long sent = 0;
    if (run.inMemory()) {
      byte[] d = run.data();
      int length = (int) run.bytes();
      for (int off = 0; off < length; off += maxFrame) {
        int n = Math.min(maxFrame, length - off);
        writer.write(FrameType.DATA, d, off, n);
        sent += n;
      }
    } else {
      try (InputStream in = run.open()) {
        int n;
        while ((n = in.readNBytes(chunk, 0, maxFrame)) > 0) {
          writer.write(FrameType.DATA, chunk, 0, n);
          sent += n;
        }
      }
    }
    if (sent != run.bytes()) {
      throw new IOException("run for " + to + " has " + sent + " bytes, expected " + run.bytes());
    }
    writer.control(FrameType.RUN_END).putLong(run.records()).putLong(run.bytes()).send();
    records += run.records();
    bytes += run.bytes();
    runs++;
  }

  /** Ends the stream and waits for the child's acknowledgement. */
  public void finish() throws IOException {
    writer.control(FrameType.END).putLong(records).putLong(bytes).putInt(runs).send();
    writer.flush();
    Frame ack = expect(FrameType.ACK);
    Frame.PayloadReader p = ack.reader();
    long r = p.readLong();
    long b = p.readLong();
    p.end();
    if (r != records || b != bytes) {
      throw new IOException(
          to
              + " acknowledged "
              + r
              + " records, "
              + b
              + " bytes; "
              + from
              + " sent "
              + records
              + " records, "
              + bytes
              + " bytes");
    }
  }

  public long records() {
    return records;
  }

  public long bytes() {
    return bytes;
  }

  /** Tells the child why this stream stops, best effort. */
  public void fail(String reason) {
    try {
      writer.control(FrameType.ERROR).putString(reason).send();
      writer.flush();
    } catch (IOException ignored) {
      // the child is gone
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }

  private Frame expect(FrameType type) throws IOException {
    Frame f = reader.read();
    if (f == null) {
      throw new IOException(to + " closed the connection while " + from + " waited for " + type);
    }
    if (f.type() == FrameType.ERROR) {
      throw new IOException(to + " refused: " + f.reader().readString(2048));
    }
    if (f.type() != type) {
      throw new FrameException(to + " sent " + f.type() + " where " + type + " was due");
    }
    return f;
  }
}
