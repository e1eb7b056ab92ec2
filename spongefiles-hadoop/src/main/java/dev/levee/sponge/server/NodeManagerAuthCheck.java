package dev.levee.sponge.server;

import dev.levee.sponge.config.SpongeConf;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;

/**
 * What authentication by default needs from the NodeManager the sponge aux service starts in,
 * checked at start so a misconfigured node fails at once with a message that says what to set,
 * rather than every task silently losing SpongeFiles later.
 *
 * <p>Tasks prove their job's shuffle secret, which MapReduce hands only the {@code
 * mapreduce_shuffle} service: with authentication required, that service must be {@link
 * JobSecretRelayingShuffleHandler} (or a subclass), or no sponge server ever learns a secret to
 * check. Running without authentication is an explicit {@code auth.required=false}, warned about at
 * every start.
 */
final class NodeManagerAuthCheck {
  static final String SHUFFLE_CLASS_KEY = "yarn.nodemanager.aux-services.mapreduce_shuffle.class";
  static final String MANIFEST_KEY = "yarn.nodemanager.aux-services.manifest.enabled";

  private NodeManagerAuthCheck() {}

  /**
   * @throws IllegalStateException naming the keys, when authentication is required but the node's
   *     mapreduce_shuffle would never pass a job's secret on
   */
  static void atStart(Configuration nodeManager, boolean authRequired, Logger log) {
    if (!authRequired) {
      log.warn(
          "SpongeFiles runs WITHOUT authentication ({}=false): any process that reaches this"
              + " node's sponge port can allocate under any application's quota and read or free"
              + " any chunk whose capability it learns. Only for single-tenant clusters and tests;"
              + " remove the setting to authenticate every connection.",
          SpongeConf.AUTH_REQUIRED.name());
      return;
    }
    String relay = JobSecretRelayingShuffleHandler.class.getName();
    String shuffle = nodeManager.getTrimmed(SHUFFLE_CLASS_KEY);
    if (shuffle == null || shuffle.isEmpty()) {
      if (nodeManager.getBoolean(MANIFEST_KEY, false)) {
        // The aux services come from a manifest file this service cannot read reliably.
        log.warn(
            "{} is on: make sure the manifest runs mapreduce_shuffle as {}, or tasks cannot"
                + " authenticate to this node's sponge server",
            MANIFEST_KEY,
            relay);
        return;
      }
      throw refusal("is not set (no mapreduce_shuffle service)", relay);
    }
    if (!relays(shuffle, relay)) {
      throw refusal("is " + shuffle, relay);
    }
  }

  private static boolean relays(String shuffle, String relay) {
    if (shuffle.equals(relay)) {
      return true;
    }
    try {
      ClassLoader loader = NodeManagerAuthCheck.class.getClassLoader();
      return JobSecretRelayingShuffleHandler.class.isAssignableFrom(
          Class.forName(shuffle, false, loader));
    } catch (ClassNotFoundException | LinkageError e) {
      return false; // not loadable here (its own classpath): only the relay's own name counts
    }
  }

  private static IllegalStateException refusal(String found, String relay) {
    return new IllegalStateException(
        SpongeConf.AUTH_REQUIRED.name()
            + " is true (the default), but "
            + SHUFFLE_CLASS_KEY
            + " "
            + found
            + ": only "
            + relay
            + " passes each job's secret on to the sponge server, so no task could authenticate"
            + " and every one would lose SpongeFiles. Set "
            + SHUFFLE_CLASS_KEY
            + " to "
            + relay
            + " (Hadoop's ShuffleHandler, unchanged, plus the relay), or set "
            + SpongeConf.AUTH_REQUIRED.name()
            + "=false to run unauthenticated (single-tenant clusters only).");
  }
}
