package dev.levee.sponge.protocol;

import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * An unguessable 128-bit token that proves its holder allocated a chunk. Only the allocating client
 * ever learns it (it travels in the ALLOCATE_WRITE reply), and the server serves or frees a chunk
 * only against it, so a chunk index alone (small, sequential, guessable) gives access to nothing.
 */
public final class Capability {
  public static final int BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] token;

  private Capability(byte[] token) {
    this.token = token;
  }

  public static Capability random() {
    byte[] t = new byte[BYTES];
    RANDOM.nextBytes(t);
    return new Capability(t);
  }

  public static Capability of(byte[] token) {
    if (token.length != BYTES) {
      throw new IllegalArgumentException(
          "capability must be " + BYTES + " bytes, got " + token.length);
    }
    return new Capability(token.clone());
  }

  public byte[] bytes() {
    return token.clone();
  }

  /**
   * Constant-time comparison, so that response timing leaks nothing about how much of a guess was
   * right.
   */
  public boolean matches(Capability other) {
    return other != null && MessageDigest.isEqual(token, other.token);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Capability c && matches(c);
  }

  @Override
  public int hashCode() {
    return java.util.Arrays.hashCode(token);
  }

  /** Only a short prefix: logs must not carry enough of a capability to use it. */
  @Override
  public String toString() {
    return "cap:" + HexFormat.of().formatHex(token, 0, 2) + "…";
  }
}
