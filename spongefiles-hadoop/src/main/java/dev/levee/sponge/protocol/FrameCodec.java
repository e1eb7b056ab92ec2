package dev.levee.sponge.protocol;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;

/** Reads and writes length-prefixed frames on blocking streams. */
public final class FrameCodec {
  private FrameCodec() {}

  /** One whole request of this protocol's version, length prefix included, as bytes. */
  public static byte[] encode(byte code, long requestId, byte[] payload) {
    return encode(Frame.VERSION, code, requestId, payload);
  }

  /**
   * One whole frame claiming {@code version}, length prefix included: the fuzzer and the tests send
   * frames of other versions too.
   */
  public static byte[] encode(byte version, byte code, long requestId, byte[] payload) {
    return ByteBuffer.allocate(4 + Frame.HEADER_BYTES + payload.length)
        .putInt(Frame.HEADER_BYTES + payload.length)
        .put(version)
        .put(code)
        .putLong(requestId)
        .put(payload)
        .array();
  }

  /**
   * Reads one frame of at most {@code maxFrameBytes} after the prefix.
   *
   * @return the frame, or {@code null} on a clean end of stream at a frame boundary
   * @throws MalformedFrameException for a length prefix out of range (out of sync: the caller
   *     closes)
   * @throws EOFException when the stream ends inside a frame
   */
  public static Frame read(DataInputStream in, int maxFrameBytes) throws IOException {
    int first = in.read();
    if (first < 0) {
      return null;
    }
    int length =
        (first << 24)
            | (in.readUnsignedByte() << 16)
            | (in.readUnsignedByte() << 8)
            | in.readUnsignedByte();
    if (length < Frame.HEADER_BYTES) {
      throw new MalformedFrameException(
          Status.BAD_REQUEST,
          0,
          false,
          "frame length " + length + " is shorter than the " + Frame.HEADER_BYTES + "-byte header");
    }
    if (length > maxFrameBytes) {
      throw new MalformedFrameException(
          Status.FRAME_TOO_LARGE,
          0,
          false,
          "frame length " + length + " exceeds the limit of " + maxFrameBytes + " bytes");
    }
    byte[] body = new byte[length];
    in.readFully(body);
    ByteBuffer buf = ByteBuffer.wrap(body);
    byte version = buf.get();
    byte code = buf.get();
    long requestId = buf.getLong();
    return new Frame(version, code, requestId, buf.slice());
  }

  /** Writes a frame whose payload is {@code payload} (position..limit, left unchanged). */
  public static void write(DataOutputStream out, byte code, long requestId, ByteBuffer payload)
      throws IOException {
    ByteBuffer p = payload.duplicate();
    out.writeInt(Frame.HEADER_BYTES + p.remaining());
    out.writeByte(Frame.VERSION);
    out.writeByte(code);
    out.writeLong(requestId);
    if (p.hasArray()) {
      out.write(p.array(), p.arrayOffset() + p.position(), p.remaining());
    } else {
      byte[] tmp = new byte[Math.min(p.remaining(), 64 * 1024)];
      while (p.hasRemaining()) {
        int n = Math.min(tmp.length, p.remaining());
        p.get(tmp, 0, n);
        out.write(tmp, 0, n);
      }
    }
  }

  /**
   * Writes a frame made of a small header payload followed by a bulk body (so the body is never
   * copied twice).
   */
  public static void write(
      DataOutputStream out, byte code, long requestId, ByteBuffer head, ByteBuffer body)
      throws IOException {
    ByteBuffer h = head.duplicate();
    ByteBuffer b = body.duplicate();
    out.writeInt(Frame.HEADER_BYTES + h.remaining() + b.remaining());
    out.writeByte(Frame.VERSION);
    out.writeByte(code);
    out.writeLong(requestId);
    out.write(h.array(), h.arrayOffset() + h.position(), h.remaining());
    if (b.hasArray()) {
      out.write(b.array(), b.arrayOffset() + b.position(), b.remaining());
    } else {
      byte[] tmp = new byte[Math.min(b.remaining(), 64 * 1024)];
      while (b.hasRemaining()) {
        int n = Math.min(tmp.length, b.remaining());
        b.get(tmp, 0, n);
        out.write(tmp, 0, n);
      }
    }
  }
}
