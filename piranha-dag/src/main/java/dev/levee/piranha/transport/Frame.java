package dev.levee.piranha.transport;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** One decoded frame: its type and payload (a view of the reader's buffer until the next read). */
public record Frame(FrameType type, byte[] payload, int length) {

  /** Reads the payload's fields; malformed payloads fail as {@link FrameException}. */
  public PayloadReader reader() {
    return new PayloadReader(this);
  }

  /** Sequential access to a payload's fields (big-endian, strings as u16 length + UTF-8). */
  public static final class PayloadReader {
    private final Frame frame;
    private final ByteBuffer in;

    PayloadReader(Frame frame) {
      this.frame = frame;
      this.in = ByteBuffer.wrap(frame.payload, 0, frame.length);
    }

    public long readLong() throws FrameException {
      need(8, "a long");
      return in.getLong();
    }

    public int readInt() throws FrameException {
      need(4, "an int");
      return in.getInt();
    }

    public boolean readBoolean() throws FrameException {
      need(1, "a flag");
      byte b = in.get();
      if (b != 0 && b != 1) {
        throw new FrameException(frame.type + " frame holds flag byte " + b + "; expected 0 or 1");
      }
      return b == 1;
    }

    public String readString(int maxBytes) throws FrameException {
      need(2, "a string length");
      int n = Short.toUnsignedInt(in.getShort());
      if (n > maxBytes) {
        throw new FrameException(
            frame.type
                + " frame holds a string of "
                + n
                + " bytes; at most "
                + maxBytes
                + " are allowed");
      }
      need(n, "a string of " + n + " bytes");
      ByteBuffer slice = in.slice(in.position(), n);
      in.position(in.position() + n);
      try {
        return StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT)
            .decode(slice)
            .toString();
      } catch (CharacterCodingException e) {
        throw new FrameException(frame.type + " frame holds text that is not UTF-8", e);
      }
    }

    public byte[] readBytes(int n) throws FrameException {
      need(n, n + " bytes");
      byte[] b = new byte[n];
      in.get(b);
      return b;
    }

    /** Fails unless every payload byte was read. */
    public void end() throws FrameException {
      if (in.hasRemaining()) {
        throw new FrameException(
            frame.type + " frame has " + in.remaining() + " unexpected bytes after its fields");
      }
    }

    private void need(int n, String what) throws FrameException {
      if (in.remaining() < n) {
        throw new FrameException(
            frame.type
                + " frame is too short: "
                + what
                + " needs "
                + n
                + " bytes, "
                + in.remaining()
                + " left");
      }
    }
  }
}
