package dev.levee.sponge.protocol;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded hostile input for the sponge wire protocol: a well-formed request of a random op (or an
 * unknown op or version) with plausible random fields, then mutated by bit flips, a lying length
 * prefix, truncation, random field bytes or trailing junk. Shared by the CI fuzz test and the long
 * {@code sponge-fuzz} bench, so that both try the same kinds of input; the same seed gives the same
 * frames.
 */
public final class FrameFuzzer {
  private final Random r;
  private final int chunkSize;
  private final int chunkIndexes;

  /**
   * @param random the seeded source of every choice
   * @param chunkSize the server's chunk size (some writes are exactly one chunk)
   * @param chunkIndexes READ and FREE name a chunk index below this (a little above the pool's
   *     chunk count, so some are out of range)
   */
  public FrameFuzzer(Random random, int chunkSize, int chunkIndexes) {
    this.r = random;
    this.chunkSize = chunkSize;
    this.chunkIndexes = chunkIndexes;
  }

  /** A well-formed request of {@code op} with plausible, random field values. */
  public byte[] validPayload(Op op) {
    String app = r.nextBoolean() ? "application_1_000" + r.nextInt(8) : "app-" + r.nextInt();
    return switch (op) {
      case ALLOCATE_WRITE -> {
        int len = r.nextInt(4) == 0 ? chunkSize : r.nextInt(2048);
        ByteBuffer p =
            ByteBuffer.allocate(
                Payload.stringBytes(app) + 8 + Payload.stringBytes("127.0.0.1:1") + 4 + len);
        Payload.putString(p, app);
        p.putLong(r.nextBoolean() ? ProcessHandle.current().pid() : r.nextLong());
        Payload.putString(p, "127.0.0.1:1");
        p.putInt(len);
        byte[] data = new byte[len];
        r.nextBytes(data);
        yield p.put(data).array();
      }
      case READ, FREE -> {
        byte[] cap = new byte[Capability.BYTES];
        r.nextBytes(cap);
        yield ByteBuffer.allocate(4 + Capability.BYTES)
            .putInt(r.nextInt(chunkIndexes))
            .put(cap)
            .array();
      }
      case FREE_SPACE -> new byte[0];
      case IS_ALIVE -> ByteBuffer.allocate(8).putLong(r.nextInt(1 << 22)).array();
      case RENEW -> {
        ByteBuffer p = ByteBuffer.allocate(8 + Payload.stringBytes("127.0.0.1:1"));
        p.putLong(r.nextBoolean() ? ProcessHandle.current().pid() : r.nextLong());
        Payload.putString(p, "127.0.0.1:1");
        yield p.array();
      }
      case CHALLENGE, GRANT_SECRET -> new byte[0];
      case AUTHENTICATE -> {
        byte[] proof = new byte[Handshake.PROOF_BYTES];
        r.nextBytes(proof);
        ByteBuffer p = ByteBuffer.allocate(1 + Payload.stringBytes(app) + proof.length);
        p.put((byte) (1 + r.nextInt(2)));
        Payload.putString(p, app);
        yield p.put(proof).array();
      }
    };
  }

  /** One fuzzed frame: a valid one of a random op (or unknown op/version), then mutated. */
  public byte[] next() {
    Op[] ops = Op.values();
    int pick = r.nextInt(ops.length + 1);
    byte code = pick < ops.length ? ops[pick].code() : (byte) r.nextInt(256);
    byte[] payload = pick < ops.length ? validPayload(ops[pick]) : new byte[0];
    byte version = r.nextInt(20) == 0 ? (byte) r.nextInt(256) : Frame.VERSION;
    byte[] f = FrameCodec.encode(version, code, r.nextLong(), payload);
    switch (r.nextInt(6)) {
      case 0 -> {} // valid: random values only
      case 1 -> { // bit flips anywhere but the length prefix
        for (int i = 0, n = 1 + r.nextInt(4); i < n && f.length > 4; i++) {
          int at = 4 + r.nextInt(f.length - 4);
          f[at] ^= (byte) (1 << r.nextInt(8));
        }
      }
      case 2 -> { // a lying length prefix (shorter than the bytes sent, or absurd)
        int lie =
            r.nextBoolean()
                ? r.nextInt(Math.max(1, f.length))
                : r.nextInt(3) == 0 ? -r.nextInt(1000) : Integer.MAX_VALUE - r.nextInt(10);
        ByteBuffer.wrap(f).putInt(0, lie);
      }
      case 3 -> { // truncated: the connection ends inside the frame
        f = java.util.Arrays.copyOf(f, r.nextInt(f.length));
      }
      case 4 -> { // random bytes in the payload fields
        for (int i = 4 + Frame.HEADER_BYTES;
            i < Math.min(f.length, 4 + Frame.HEADER_BYTES + 64);
            i++) {
          if (r.nextInt(3) == 0) {
            f[i] = (byte) r.nextInt(256);
          }
        }
      }
      default -> { // trailing junk inside the frame
        byte[] tail = new byte[1 + r.nextInt(64)];
        r.nextBytes(tail);
        byte[] g = java.util.Arrays.copyOf(f, f.length + tail.length);
        System.arraycopy(tail, 0, g, f.length, tail.length);
        ByteBuffer.wrap(g).putInt(0, g.length - 4);
        f = g;
      }
    }
    return f;
  }

  /** The next {@code n} fuzzed frames, for one connection. */
  public List<byte[]> next(int n) {
    List<byte[]> frames = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      frames.add(next());
    }
    return frames;
  }

  /**
   * What a server did with one connection's frames: how many replies it sent, and whether it then
   * closed or left the connection hanging past the socket's read timeout.
   */
  public record Exchange(int replies, boolean hung) {}

  /**
   * Sends {@code frames} on {@code s}, half-closes it, and reads replies until the server closes.
   * The server may close after a frame it cannot resync from, even while frames are still being
   * sent: what it said before that is still read. A read that outlasts the socket's timeout ends
   * the exchange as hung.
   */
  public static Exchange exchange(Socket s, List<byte[]> frames) throws IOException {
    try {
      for (byte[] f : frames) {
        s.getOutputStream().write(f);
      }
      s.shutdownOutput();
    } catch (IOException closedEarly) {
      // closed by the server part-way: its replies are still there to read
    }
    DataInputStream in = new DataInputStream(s.getInputStream());
    int replies = 0;
    try {
      while (true) {
        in.skipNBytes(in.readInt());
        replies++;
      }
    } catch (EOFException | SocketException closed) {
      return new Exchange(replies, false);
    } catch (SocketTimeoutException hang) {
      return new Exchange(replies, true);
    }
  }
}
