package dev.levee.piranha.transport;

/** The frames of a push connection, in the order a healthy connection carries them. */
public enum FrameType {
  /** Child to parent, first: a fresh nonce the parent must sign. */
  CHALLENGE(1),
  /** Parent to child: run id, attempt, both task ids, and the HMAC over them and the nonce. */
  HELLO(2),
  /** Child to parent: the parent may push. */
  WELCOME(3),
  /** Parent to child: a run begins (sorted or not). */
  RUN_START(4),
  /** Parent to child: bytes of the current run. */
  DATA(5),
  /** Parent to child: the run ends, with its record and byte counts. */
  RUN_END(6),
  /** Parent to child: the stream ends, with totals. */
  END(7),
  /** Child to parent: the whole stream is held (in memory or on disk). */
  ACK(8),
  /** Either way: a reason, then the sender closes. */
  ERROR(9);

  private final byte code;

  FrameType(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /** The type with this code, or null. */
  public static FrameType of(byte code) {
    for (FrameType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return null;
  }
}
