package dev.levee.sponge.protocol;

import java.util.Optional;

/**
 * Request operations of the sponge protocol; the code is the op byte on the wire and never changes
 * meaning.
 */
public enum Op {
  /**
   * Allocate a chunk and fill it in the same round trip: a remote chunk is always written whole,
   * once.
   */
  ALLOCATE_WRITE(1),
  READ(2),
  FREE(3),
  /** Free/total chunks, polled by the memory tracker. */
  FREE_SPACE(4),
  /**
   * Whether a pid is alive on the answering server's host: remote-owner garbage collection asks
   * this.
   */
  IS_ALIVE(5),
  /** Asks for a fresh nonce to authenticate this connection with ({@link Handshake}). */
  CHALLENGE(6),
  /** Proves knowledge of an application's or the cluster's secret ({@link Handshake}). */
  AUTHENTICATE(7),
  /**
   * Renews the lease of a remote owner with the server that holds its chunks (sent periodically by
   * a client that stores chunks there): while the lease is fresh the owner counts as alive even
   * when its own node's server does not answer.
   */
  RENEW(8),
  /**
   * Asks the node's own server for the application secret derived from the cluster secret ({@link
   * Handshake#derivedApplicationSecret}), which every server can check: a task that proved its
   * job's secret here may then authenticate on nodes its application never started on. Answered
   * only on a connection from this host that proved the application's own secret.
   */
  GRANT_SECRET(9);

  private final byte code;

  Op(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  public static Optional<Op> fromCode(byte code) {
    for (Op op : values()) {
      if (op.code == code) {
        return Optional.of(op);
      }
    }
    return Optional.empty();
  }
}
