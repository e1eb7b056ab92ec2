package dev.levee.sponge.protocol;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Field-level encoding inside a frame payload: fixed-width big-endian integers, and strings as
 * {@code u16 length | UTF-8 bytes}. Decoding failures become {@link MalformedFrameException}s with
 * the stream still in sync (the whole frame was already read).
 */
public final class Payload {
  public static final int MAX_STRING_BYTES = 512;

  private final ByteBuffer buf;
  private final long requestId;

  public Payload(ByteBuffer buf, long requestId) {
    this.buf = buf;
    this.requestId = requestId;
  }

  public int getInt(String field) throws MalformedFrameException {
    try {
      return buf.getInt();
    } catch (BufferUnderflowException e) {
      throw truncated(field);
    }
  }

  public long getLong(String field) throws MalformedFrameException {
    try {
      return buf.getLong();
    } catch (BufferUnderflowException e) {
      throw truncated(field);
    }
  }

  public byte getByte(String field) throws MalformedFrameException {
    try {
      return buf.get();
    } catch (BufferUnderflowException e) {
      throw truncated(field);
    }
  }

  public byte[] getBytes(String field, int n) throws MalformedFrameException {
    if (buf.remaining() < n) {
      throw truncated(field);
    }
    byte[] out = new byte[n];
    buf.get(out);
    return out;
  }

  public String getString(String field) throws MalformedFrameException {
    int len;
    try {
      len = Short.toUnsignedInt(buf.getShort());
    } catch (BufferUnderflowException e) {
      throw truncated(field);
    }
    if (len > MAX_STRING_BYTES) {
      throw new MalformedFrameException(
          Status.BAD_REQUEST,
          requestId,
          true,
          field + " is " + len + " bytes, more than the " + MAX_STRING_BYTES + " allowed");
    }
    byte[] bytes = getBytes(field, len);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new MalformedFrameException(
          Status.BAD_REQUEST, requestId, true, field + " is not valid UTF-8");
    }
  }

  /** The rest of the payload, as a view (no copy). */
  public ByteBuffer rest() {
    return buf.slice();
  }

  public int remaining() {
    return buf.remaining();
  }

  public void expectEnd(String op) throws MalformedFrameException {
    if (buf.hasRemaining()) {
      throw new MalformedFrameException(
          Status.BAD_REQUEST,
          requestId,
          true,
          op + " request has " + buf.remaining() + " unexpected trailing bytes");
    }
  }

  private MalformedFrameException truncated(String field) {
    return new MalformedFrameException(
        Status.BAD_REQUEST, requestId, true, "payload ends before field " + field);
  }

  public static void putString(ByteBuffer out, String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (b.length > MAX_STRING_BYTES) {
      throw new IllegalArgumentException(
          "string of " + b.length + " bytes exceeds " + MAX_STRING_BYTES + ": " + s);
    }
    out.putShort((short) b.length);
    out.put(b);
  }

  /**
   * {@code s} cut, on a character boundary, to what fits in a string field, with "…" marking the
   * cut. Counts UTF-8 bytes, not characters: 400 characters of non-ASCII text are up to 1,600
   * bytes.
   */
  public static String fitString(String s) {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    if (b.length <= MAX_STRING_BYTES) {
      return s;
    }
    String ellipsis = "…";
    int budget = MAX_STRING_BYTES - ellipsis.getBytes(StandardCharsets.UTF_8).length;
    int bytes = 0;
    int end = 0;
    while (end < s.length()) {
      int cp = s.codePointAt(end);
      int n = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
      if (bytes + n > budget) {
        break;
      }
      bytes += n;
      end += Character.charCount(cp);
    }
    return s.substring(0, end) + ellipsis;
  }

  public static int stringBytes(String s) {
    return 2 + s.getBytes(StandardCharsets.UTF_8).length;
  }
}
