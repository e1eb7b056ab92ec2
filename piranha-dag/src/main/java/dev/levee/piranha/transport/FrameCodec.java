package dev.levee.piranha.transport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The wire format of a push connection: {@code [type: 1 byte][payload length: 4 bytes][CRC32C of
 * the payload: 4 bytes][payload]}. A reader never allocates more than its limit for one frame,
 * refuses unknown types, lengths over the limit and checksum mismatches with a {@link
 * FrameException} that says which, and tells a clean end of stream (between frames) from a cut one.
 */
public final class FrameCodec {
  public static final int HEADER_BYTES = 9;

  /** Payload room every frame type needs besides DATA (ids, MACs, reasons). */
  public static final int CONTROL_LIMIT = 4096;

  private FrameCodec() {}

  /** Reads frames from one stream, reusing one payload buffer. */
  public static final class Reader {
    private final DataInputStream in;
    private final int maxPayload;
    private final CRC32C crc = new CRC32C();
    private byte[] buffer = new byte[1024];

    public Reader(InputStream in, int maxPayload) {
      this.in = new DataInputStream(in);
      this.maxPayload = Math.max(maxPayload, CONTROL_LIMIT);
    }

    /** The next frame, or null at a clean end of stream. */
    public Frame read() throws IOException {
      int first = in.read();
      if (first < 0) {
        return null;
      }
      FrameType type = FrameType.of((byte) first);
      if (type == null) {
        throw new FrameException(
            String.format(
                "frame type 0x%02x is not a Piranha push frame (is this a Piranha task's port?)",
                first));
      }
      int length;
      int expectedCrc;
      try {
        length = in.readInt();
        expectedCrc = in.readInt();
      } catch (EOFException e) {
        throw new FrameException(type + " frame header is cut short", e);
      }
      int limit = type == FrameType.DATA ? maxPayload : CONTROL_LIMIT;
      if (length < 0 || length > limit) {
        throw new FrameException(
            type
                + " frame claims "
                + Integer.toUnsignedString(length)
                + " payload bytes; the limit is "
                + limit);
      }
      if (buffer.length < length) {
        buffer = new byte[Math.max(length, Math.min(limit, buffer.length * 2))];
      }
      try {
        in.readFully(buffer, 0, length);
      } catch (EOFException e) {
        throw new FrameException(type + " frame of " + length + " bytes is cut short", e);
      }
      crc.reset();
      crc.update(buffer, 0, length);
      if ((int) crc.getValue() != expectedCrc) {
        throw new FrameException(
            String.format(
                "%s frame of %d bytes fails its checksum (CRC32C 0x%08x, header says 0x%08x)",
                type, length, (int) crc.getValue(), expectedCrc));
      }
      return new Frame(type, buffer, length);
    }
  }

  /** Writes frames to one stream; callers flush. */
  public static final class Writer {
    private final DataOutputStream out;
    private final CRC32C crc = new CRC32C();
    private final PayloadBuilder payload = new PayloadBuilder();

    public Writer(OutputStream out) {
      this.out = new DataOutputStream(out);
    }

    public void write(FrameType type, byte[] data, int offset, int length) throws IOException {
      crc.reset();
      crc.update(data, offset, length);
      out.writeByte(type.code());
      out.writeInt(length);
      out.writeInt((int) crc.getValue());
      out.write(data, offset, length);
    }

    /** A fresh payload for a control frame; {@link PayloadBuilder#send} writes it. */
    public PayloadBuilder control(FrameType type) {
      payload.reset(this, type);
      return payload;
    }

    public void flush() throws IOException {
      out.flush();
    }
  }

  /** Fields of a control frame (big-endian; strings as u16 length + UTF-8). */
  public static final class PayloadBuilder {
    private final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);
    private Writer writer;
    private FrameType type;

    void reset(Writer w, FrameType t) {
      bytes.reset();
      writer = w;
      type = t;
    }

    public PayloadBuilder putLong(long v) throws IOException {
      out.writeLong(v);
      return this;
    }

    public PayloadBuilder putInt(int v) throws IOException {
      out.writeInt(v);
      return this;
    }

    public PayloadBuilder putBoolean(boolean v) throws IOException {
      out.writeByte(v ? 1 : 0);
      return this;
    }

    public PayloadBuilder putString(String s) throws IOException {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      if (b.length > 0xffff) {
        b = java.util.Arrays.copyOf(b, 0xffff);
      }
      out.writeShort(b.length);
      out.write(b);
      return this;
    }

    public PayloadBuilder putBytes(byte[] b) throws IOException {
      out.write(b);
      return this;
    }

    public void send() throws IOException {
      out.flush();
      byte[] b = bytes.toByteArray();
      writer.write(type, b, 0, b.length);
    }
  }
}
