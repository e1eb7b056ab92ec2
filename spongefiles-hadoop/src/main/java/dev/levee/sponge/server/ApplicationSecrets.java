package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Handshake;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The secrets a server checks handshakes against: each application's, handed over by the
 * NodeManager when the application starts on this node (the MapReduce job's shuffle secret, which
 * its tasks also hold), and the cluster's, read from a file only servers (and, outside YARN,
 * trusted clients) can read. With a cluster secret, an application this node was not told about may
 * still prove itself with the secret derived from it ({@link Handshake#derivedApplicationSecret}):
 * that is how the standalone daemon's clients authenticate.
 */
public final class ApplicationSecrets {
  private final Map<String, byte[]> applications = new ConcurrentHashMap<>();
  private final byte[] cluster;

  /**
   * @param clusterSecret the cluster's secret, or null if none is configured
   */
  public ApplicationSecrets(byte[] clusterSecret) {
    this.cluster = clusterSecret == null ? null : clusterSecret.clone();
  }

  public void register(String applicationId, byte[] secret) {
    if (secret == null || secret.length == 0) {
      throw new IllegalArgumentException("empty secret for " + applicationId);
    }
    applications.put(applicationId, secret.clone());
  }

  public void forget(String applicationId) {
    applications.remove(applicationId);
  }

  /** The secret {@code principal} of {@code kind} must prove, if this server knows one. */
  Optional<byte[]> secretOf(Handshake.Kind kind, String principal) {
    return switch (kind) {
      case SERVER -> Optional.ofNullable(cluster);
      case APPLICATION -> {
        byte[] s = applications.get(principal);
        if (s != null) {
          yield Optional.of(s);
        }
        yield cluster == null
            ? Optional.empty()
            : Optional.of(Handshake.derivedApplicationSecret(cluster, principal));
      }
    };
  }
}
