package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Payload;
import dev.levee.sponge.protocol.TimedChannel;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

/**
 * A request payload as it arrives: its first bytes (every request's fields fit in {@code
 * Frame.MAX_METADATA_BYTES}) in memory, the rest (an ALLOCATE_WRITE's chunk bytes) still on the
 * socket, so that they can be read straight into the pool chunk once it is allocated. Whatever the
 * request's handler leaves unread is drained afterwards, which keeps the connection in frame sync
 * after an early refusal.
 */
final class IncomingPayload implements ChunkBody {
  private final TimedChannel channel;
  private final ByteBuffer head;
  private long onWire;

  /** A body read that failed part-way: how much of it is still on the socket is unknown. */
  private boolean outOfSync;

  /**
   * Reads up to {@code headBuffer.capacity()} bytes of a {@code payloadBytes}-byte payload into
   * {@code headBuffer}.
   */
  IncomingPayload(TimedChannel channel, int payloadBytes, ByteBuffer headBuffer)
      throws IOException {
    this.channel = channel;
    this.head = headBuffer;
    head.clear().limit(Math.min(payloadBytes, head.capacity()));
    channel.readFully(head, false);
    head.flip();
    this.onWire = payloadBytes - head.limit();
  }

  /** A decoder over the in-memory part; decoding advances this payload. */
  Payload fields(long requestId) {
    return new Payload(head, requestId);
  }

  /** A decoder over the in-memory part that leaves this payload where it is. */
  Payload peek() {
    return new Payload(head.duplicate(), 0);
  }

  /**
   * The whole payload in memory, for requests that carry no chunk (a frame may still be long: it is
   * bounded by the frame limit, and must be read whole to be judged).
   */
  Payload whole(long requestId) throws IOException {
    if (onWire == 0) {
      return fields(requestId);
    }
    ByteBuffer all = ByteBuffer.allocate(head.remaining() + (int) onWire);
    all.put(head);
    channel.readFully(all, false);
    onWire = 0;
    return new Payload(all.flip(), requestId);
  }

  @Override
  public long remaining() {
    return head.remaining() + onWire;
  }

  @Override
  public void readInto(ByteBuffer dst) throws IOException {
    if (dst.remaining() != remaining()) {
      throw new IllegalArgumentException(
          "destination has room for " + dst.remaining() + " bytes, the body has " + remaining());
    }
    outOfSync = true;
    dst.put(head);
    channel.readFully(dst, false);
    onWire = 0;
    outOfSync = false;
  }

  /** Drops whatever the handler did not read, through {@code scratch} if any is on the wire. */
  void discardRest(Supplier<ByteBuffer> scratch) throws IOException {
    if (outOfSync) {
      throw new IOException(
          "a request body was only partly read; the connection is out of frame sync");
    }
    head.position(head.limit());
    if (onWire > 0) {
      channel.skip(onWire, scratch.get());
    }
    onWire = 0;
  }
}
