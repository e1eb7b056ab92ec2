package dev.levee.sponge.hadoop;

import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.Handshake;
import java.io.IOException;
import org.apache.hadoop.mapreduce.security.TokenCache;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a task proves to sponge servers: its job's shuffle secret, the same secret the
 * ApplicationMaster hands the node's aux service at application start (MapReduce falls back to the
 * job token's password when the job has no separate shuffle key), so servers can check it without
 * any new key distribution. Outside YARN, the secret derived from the cluster secret file, if this
 * process can read it. Without either, or when the task's configuration does not say servers
 * require authentication ({@code levee.sponge.server.auth.required}), the task connects
 * unauthenticated, as before: a server without the application's secret would refuse a proof it
 * cannot check.
 */
final class TaskCredentials {
  private static final Logger LOG = LoggerFactory.getLogger(TaskCredentials.class);

  private TaskCredentials() {}

  /**
   * What the task proves, and whether it is its job's own secret (which its node's server can
   * exchange for the cluster-derived one) rather than a secret it derived itself.
   *
   * @param credential null to connect unauthenticated
   */
  record Proof(Handshake.Credential credential, boolean isJobSecret) {
    static final Proof NONE = new Proof(null, false);
  }

  static Proof of(String applicationId, SpongeServerConfig server) {
    if (!server.auth().required()) {
      return Proof.NONE;
    }
    try {
      Credentials creds = UserGroupInformation.getCurrentUser().getCredentials();
      byte[] secret = TokenCache.getShuffleSecretKey(creds);
      if (secret == null) {
        Token<?> job = TokenCache.getJobToken(creds);
        secret = job == null ? null : job.getPassword();
      }
      if (secret != null && secret.length > 0) {
        return new Proof(
            new Handshake.Credential(Handshake.Kind.APPLICATION, applicationId, secret), true);
      }
      byte[] cluster = server.auth().clusterSecret();
      if (cluster != null) {
        return new Proof(
            new Handshake.Credential(
                Handshake.Kind.APPLICATION,
                applicationId,
                Handshake.derivedApplicationSecret(cluster, applicationId)),
            false);
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("sponge task connects unauthenticated: no usable secret ({})", e.toString());
    }
    return Proof.NONE;
  }
}
