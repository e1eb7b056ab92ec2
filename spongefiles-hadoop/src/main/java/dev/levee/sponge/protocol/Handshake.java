package dev.levee.sponge.protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Objects;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The connection handshake that authenticates a peer, as the MapReduce ShuffleHandler authenticates
 * a fetch with an HMAC keyed by the job token, but once per connection:
 *
 * <ol>
 *   <li>the client sends {@link Op#CHALLENGE}; the server answers a fresh random nonce, kept for
 *       this connection only;
 *   <li>the client sends {@link Op#AUTHENTICATE}: {@code u8 kind | string principal |
 *       HMAC-SHA256(secret, "levee-sponge-auth-1" | nonce | kind | principal)}, where the principal
 *       is an application id (kind {@link Kind#APPLICATION}, secret: the application's) or a
 *       server's node name (kind {@link Kind#SERVER}, secret: the cluster's);
 *   <li>the server checks the proof and binds the connection to that principal: allocations are
 *       charged to it, and only its chunks are read or freed on it.
 * </ol>
 *
 * A frame captured on one connection is worthless on another: the nonce differs, and a READ or FREE
 * on a connection bound to someone else is refused. The secret never travels. What it does not give
 * is confidentiality: without TLS, chunk bytes cross the network in clear.
 */
public final class Handshake {
  public static final int NONCE_BYTES = 16;
  public static final int PROOF_BYTES = 32;
  private static final byte[] CONTEXT = "levee-sponge-auth-1".getBytes(StandardCharsets.US_ASCII);
  private static final SecureRandom RANDOM = new SecureRandom();

  private Handshake() {}

  /** Who a connection speaks for. */
  public enum Kind {
    APPLICATION(1),
    SERVER(2);

    private final byte code;

    Kind(int code) {
      this.code = (byte) code;
    }

    public byte code() {
      return code;
    }

    public static Optional<Kind> fromCode(byte code) {
      for (Kind k : values()) {
        if (k.code == code) {
          return Optional.of(k);
        }
      }
      return Optional.empty();
    }
  }

  /** What a client proves itself with; the secret stays in this process. */
  public record Credential(Kind kind, String principal, byte[] secret) {
    public Credential {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(principal, "principal");
      if (secret == null || secret.length == 0) {
        throw new IllegalArgumentException("a credential needs a non-empty secret");
      }
      secret = secret.clone();
    }

    @Override
    public String toString() {
      return kind + " " + principal; // never the secret
    }
  }

  public static byte[] nonce() {
    byte[] n = new byte[NONCE_BYTES];
    RANDOM.nextBytes(n);
    return n;
  }

  public static byte[] proof(byte[] secret, byte[] nonce, Kind kind, String principal) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update(CONTEXT);
      mac.update(nonce);
      mac.update(kind.code());
      mac.update(principal.getBytes(StandardCharsets.UTF_8));
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
    }
  }

  /** Constant-time check of a proof. */
  public static boolean verify(
      byte[] secret, byte[] nonce, Kind kind, String principal, byte[] claimed) {
    return MessageDigest.isEqual(proof(secret, nonce, kind, principal), claimed);
  }

  /**
   * A secret for {@code applicationId} derived from a cluster secret, for clusters without YARN's
   * per-application tokens (the standalone daemon): whoever holds the cluster secret can speak for
   * any application.
   */
  public static byte[] derivedApplicationSecret(byte[] clusterSecret, String applicationId) {
    return proof(clusterSecret, new byte[NONCE_BYTES], Kind.APPLICATION, applicationId);
  }

  /** The AUTHENTICATE request payload. */
  public static ByteBuffer authenticateRequest(Credential c, byte[] nonce) {
    byte[] proof = proof(c.secret(), nonce, c.kind(), c.principal());
    ByteBuffer b = ByteBuffer.allocate(1 + Payload.stringBytes(c.principal()) + PROOF_BYTES);
    b.put(c.kind().code());
    Payload.putString(b, c.principal());
    return b.put(proof).flip();
  }
}
