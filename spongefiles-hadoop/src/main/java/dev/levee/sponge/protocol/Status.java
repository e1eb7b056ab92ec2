package dev.levee.sponge.protocol;

/**
 * Reply status byte. Everything but {@link #OK} and {@link #NO_ROOM} is an error whose payload is a
 * UTF-8 message for the operator; {@link #NO_ROOM} is an expected answer (pool full or quota used
 * up) that sends the client on to the next server.
 */
public enum Status {
  OK(0),
  NO_ROOM(1),
  /**
   * Unknown chunk, or a capability that does not match: the two are indistinguishable on purpose.
   */
  NO_SUCH_CHUNK(2),
  BAD_REQUEST(3),
  UNKNOWN_OP(4),
  UNSUPPORTED_VERSION(5),
  FRAME_TOO_LARGE(6),
  BUSY(7),
  INTERNAL_ERROR(8),
  /**
   * The connection is not authenticated for this request: no handshake where the server requires
   * one, a proof that does not check, or a chunk or application of another principal.
   */
  UNAUTHENTICATED(9);

  private final byte code;

  Status(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /**
   * Unknown codes map to {@link #INTERNAL_ERROR} so that a newer server never crashes an older
   * client.
   */
  public static Status fromCode(byte code) {
    for (Status s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return INTERNAL_ERROR;
  }
}
