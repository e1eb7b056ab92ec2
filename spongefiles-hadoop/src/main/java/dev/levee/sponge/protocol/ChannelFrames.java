package dev.levee.sponge.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The frame layout of {@link Frame} over a {@link TimedChannel}: the fixed part is read on its own
 * so that the receiver can decide where the payload goes (a chunk payload straight into its pool
 * chunk or the reader's buffer), and a frame is written as one gathering write of prefix, metadata
 * and body, so the body is never copied in user space.
 */
public final class ChannelFrames {
  /** Length prefix plus {@link Frame#HEADER_BYTES}. */
  public static final int FIXED_BYTES = 4 + Frame.HEADER_BYTES;

  private ChannelFrames() {}

  /**
   * Socket send and receive buffer for connections moving {@code chunkSize}-byte chunks: room for
   * two whole chunk frames, so that a pipelined chunk can be in the kernel while the peer files the
   * previous one, and a sender rarely parks on a full buffer in the middle of a chunk. The kernel
   * caps it (net.core.wmem_max / rmem_max).
   */
  public static int socketBufferBytes(int chunkSize) {
    long want = 2L * Frame.maxFrameBytes(chunkSize);
    return (int) Math.min(want, 8 << 20);
  }

  /** The fixed part of a received frame; {@code payloadBytes} are still on the channel. */
  public record Head(byte version, byte code, long requestId, int payloadBytes) {}

  /**
   * Reads the fixed part of the next frame into {@code scratch} (at least {@link #FIXED_BYTES}).
   *
   * @return the head, or null on a clean end of stream at a frame boundary
   * @throws MalformedFrameException for a length prefix out of range (out of sync: the caller
   *     closes)
   */
  public static Head readHead(TimedChannel ch, ByteBuffer scratch, int maxFrameBytes)
      throws IOException {
    scratch.clear().limit(4);
    if (!ch.readFully(scratch, true)) {
      return null;
    }
    if (TimedChannel.startsTlsHandshake(scratch, 0)) {
      throw tlsOnPlaintext(ch, scratch);
    }
    int length = scratch.getInt(0);
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
    scratch.clear().limit(Frame.HEADER_BYTES);
    ch.readFully(scratch, false);
    return new Head(
        scratch.get(0), scratch.get(1), scratch.getLong(2), length - Frame.HEADER_BYTES);
  }

  /**
   * A TLS client reached a server without TLS. Its ClientHello is dropped whole (it sends nothing
   * more until answered), so that closing after the reply does not reset the connection under the
   * client before it reads why.
   */
  private static MalformedFrameException tlsOnPlaintext(TimedChannel ch, ByteBuffer scratch)
      throws IOException {
    scratch.clear().limit(5).position(4);
    ch.readFully(scratch, false);
    int recordBytes = scratch.getShort(3) & 0xffff;
    ch.skip(recordBytes, scratch.clear());
    return new MalformedFrameException(
        Status.BAD_REQUEST,
        0,
        false,
        "a TLS handshake reached a sponge server without TLS: "
            + WireTls.ENABLED_KEY
            + " must be the same on servers and their clients");
  }

  /**
   * Writes one frame: {@code head} (small fields) then {@code body} (bulk bytes, may be null), both
   * position..limit and left unchanged. {@code scratch} holds the fixed part (at least {@link
   * #FIXED_BYTES}).
   */
  public static void write(
      TimedChannel ch,
      ByteBuffer scratch,
      byte code,
      long requestId,
      ByteBuffer head,
      ByteBuffer body)
      throws IOException {
    ByteBuffer h = head.duplicate();
    ByteBuffer b = body == null ? ByteBuffer.allocate(0) : body.duplicate();
    long length = (long) Frame.HEADER_BYTES + h.remaining() + b.remaining();
    if (length > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "frame of " + length + " bytes does not fit the 32-bit length prefix");
    }
    scratch.clear();
    scratch.putInt((int) length).put(Frame.VERSION).put(code).putLong(requestId).flip();
    ch.writeFully(scratch, h, b);
  }
}
