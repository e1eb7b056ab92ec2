package dev.levee.sponge.server;

import dev.levee.sponge.protocol.Handshake;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Predicate;

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

  /**
   * Applications the NodeManager stopped on this node, most recent last: their secrets are never
   * looked up or believed again here. The NodeManager stops aux services in no set order, so the
   * relay may delete an application's secret file only after this service forgot the secret; a
   * handshake in between would otherwise cache it until the NodeManager restarts. Bounded: only the
   * window until the file is deleted needs covering, and the oldest entries go first.
   */
  private final Map<String, Boolean> stopped =
      Collections.synchronizedMap(
          new LinkedHashMap<>() {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
              return size() > MAX_STOPPED_REMEMBERED;
            }
          });

  static final int MAX_STOPPED_REMEMBERED = 10_000;
  private final byte[] cluster;
  private volatile Function<String, Optional<byte[]>> source = id -> Optional.empty();
  private volatile Predicate<String> ended = id -> false;

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

  /**
   * Where to find the secret of an application that was not {@link #register registered} (the
   * NodeManager's job secret drop); looked up when one of its tasks authenticates, and kept.
   */
  public void lookUpIn(Function<String, Optional<byte[]>> source) {
    this.source = source;
  }

  /**
   * Who says an application has ended cluster-wide (the ResourceManager, for a NodeManager's
   * server). Asked once a proof matched a derived secret, before it is believed: on nodes where the
   * application never ran, nothing else would ever void it, and where it ran the NodeManager stops
   * it only some heartbeats after it ended.
   */
  public void endedWhen(Predicate<String> ended) {
    this.ended = ended;
  }

  /**
   * The application stopped on this node: its secrets (the job's and the derived) are void here.
   */
  public void forget(String applicationId) {
    stopped.put(applicationId, Boolean.TRUE);
    applications.remove(applicationId);
  }

  /**
   * The secrets {@code principal} of {@code kind} may prove here, the application's own (its job's
   * secret) first; empty if this server knows none. An application may always prove the secret
   * derived from the cluster secret too: its tasks get it from their own node's server ({@link
   * dev.levee.sponge.protocol.Op#GRANT_SECRET}), so that they can authenticate on every node.
   */
  List<Secret> secretsOf(Handshake.Kind kind, String principal) {
    List<Secret> out = new ArrayList<>(2);
    switch (kind) {
      case SERVER -> {
        if (cluster != null) {
          out.add(new Secret(cluster, false));
        }
      }
      case APPLICATION -> {
        if (stopped.containsKey(principal)) {
          return out;
        }
        byte[] s = applications.get(principal);
        if (s == null) {
          s = source.apply(principal).orElse(null);
          if (s != null && s.length > 0) {
            applications.put(principal, s.clone());
            if (stopped.containsKey(principal)) {
              applications.remove(principal); // stopped while we read it: forget it after all
              return out;
            }
          }
        }
        if (s != null && s.length > 0) {
          out.add(new Secret(s, false));
        }
        Optional<byte[]> derived = derivedSecretOf(principal);
        derived.ifPresent(d -> out.add(new Secret(d, true)));
      }
    }
    return out;
  }

  /**
   * Whether {@code applicationId}'s derived secret, just proven, still stands: asked only after a
   * proof matched it, so a peer without the secret can never make this server ask (a
   * ResourceManager call for a NodeManager's server). Once the application has ended cluster-wide
   * the derived secret is void; where it ran, the NodeManager's stopApplication voids its job
   * secret too, soon; elsewhere nothing else would, and the verdict is final, so it is remembered.
   */
  boolean derivedSecretStands(String applicationId) {
    if (!ended.test(applicationId)) {
      return true;
    }
    if (!applications.containsKey(applicationId)) {
      stopped.put(applicationId, Boolean.TRUE);
    }
    return false;
  }

  /** The application secret derived from the cluster secret, if this server has one. */
  Optional<byte[]> derivedSecretOf(String applicationId) {
    return cluster == null || stopped.containsKey(applicationId)
        ? Optional.empty()
        : Optional.of(Handshake.derivedApplicationSecret(cluster, applicationId));
  }

  /**
   * @param derived whether this is the cluster-derived application secret rather than one the
   *     principal was given (the job's secret, or the cluster secret for a server)
   */
  record Secret(byte[] bytes, boolean derived) {}
}
