package dev.levee.sponge.protocol;

import java.nio.ByteBuffer;

/**
 * What a sponge server says of its own load at the end of an ALLOCATE_WRITE reply: the stores it
 * was still serving when it answered (the queue this store just left) and its free chunks after
 * this one. The fields are an optional tail, so a client that stops reading after the capability
 * (any client before them) is not affected, and a reply without them, from an older server, reads
 * as {@link #UNKNOWN}. Placement uses it as first-hand news of one server's queue, learnt at no
 * extra message.
 */
public record ServerLoad(int storesInProgress, int freeChunks) {
  /** The tail's size on the wire. */
  public static final int BYTES = 8;

  /** A reply that said nothing of load. */
  public static final ServerLoad UNKNOWN = new ServerLoad(-1, -1);

  public ServerLoad {
    if (storesInProgress < -1 || freeChunks < -1) {
      throw new IllegalArgumentException(
          "load fields are counts or -1 (unknown), got " + storesInProgress + ", " + freeChunks);
    }
  }

  public boolean known() {
    return storesInProgress >= 0;
  }

  public void put(ByteBuffer out) {
    out.putInt(storesInProgress).putInt(freeChunks);
  }

  /**
   * The tail of a reply whose other fields were read: {@link #UNKNOWN} when it has none, or when
   * its counts are ones no server has (negative). The chunk is stored either way; a garbled load
   * must not cost it.
   */
  public static ServerLoad read(Payload p) throws MalformedFrameException {
    if (p.remaining() < BYTES) {
      return UNKNOWN;
    }
    int inProgress = p.getInt("stores in progress");
    int free = p.getInt("free chunks");
    return inProgress < 0 || free < 0 ? UNKNOWN : new ServerLoad(inProgress, free);
  }
}
