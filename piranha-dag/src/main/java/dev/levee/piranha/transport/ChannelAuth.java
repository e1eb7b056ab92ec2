package dev.levee.piranha.transport;

import dev.levee.piranha.dag.TaskId;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Who may push to a child: only a task of the same run and attempt that holds the run's secret,
 * which the runner generates per run and ships in the job's credentials (as Hadoop's shuffle does
 * with its job token). The child sends a fresh nonce; the parent answers with an HMAC-SHA256 over
 * the nonce, run id, attempt and both task ids, so a captured handshake cannot be replayed.
 */
public final class ChannelAuth {
  public static final int NONCE_BYTES = 16;
  public static final int MAC_BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final byte[] secret;
  private final String runId;
  private final int attempt;

  public ChannelAuth(byte[] secret, String runId, int attempt) {
    if (secret == null || secret.length < 16) {
      throw new IllegalArgumentException(
          "the run's push secret is missing or shorter than 16 bytes; it comes from the job's"
              + " credentials, which the Piranha runner fills");
    }
    this.secret = secret.clone();
    this.runId = runId;
    this.attempt = attempt;
  }

  /** A new random secret for a run. */
  public static byte[] newSecret() {
    byte[] s = new byte[32];
    RANDOM.nextBytes(s);
    return s;
  }

  public static byte[] newNonce() {
    byte[] n = new byte[NONCE_BYTES];
    RANDOM.nextBytes(n);
    return n;
  }

  public String runId() {
    return runId;
  }

  public int attempt() {
    return attempt;
  }

  public byte[] sign(byte[] nonce, TaskId from, TaskId to) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update(nonce);
      mac.update(runId.getBytes(StandardCharsets.UTF_8));
      mac.update(
          ByteBuffer.allocate(20)
              .putInt(attempt)
              .putInt(from.stage())
              .putInt(from.partition())
              .putInt(to.stage())
              .putInt(to.partition())
              .array());
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
    }
  }

  /** Constant-time check of a parent's answer. */
  public boolean verify(byte[] nonce, TaskId from, TaskId to, byte[] answer) {
    return MessageDigest.isEqual(sign(nonce, from, to), answer);
  }
}
