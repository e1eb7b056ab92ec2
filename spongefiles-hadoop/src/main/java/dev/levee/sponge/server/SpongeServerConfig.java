package dev.levee.sponge.server;

import dev.levee.sponge.SpongeConfig;
import dev.levee.sponge.SpongeConfigKeys;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/**
 * Settings of one sponge server, read from Hadoop configuration ({@code yarn-site.xml} for the aux
 * service, {@code core-site.xml} or {@code -D} for the daemon). Every key has a default; a bad
 * value fails at start with the key, the value and what is allowed.
 *
 * <p>The pool keys ({@link SpongeConfigKeys#LOCAL_POOL_DIR}, {@link
 * SpongeConfigKeys#LOCAL_POOL_SIZE}, {@link SpongeConfigKeys#CHUNK_SIZE}, {@link
 * SpongeConfigKeys#OWNER_HOST}) are the tasks' own, read through {@link SpongeConfig}; the server
 * and every task on a node must agree on them.
 */
public record SpongeServerConfig(
    Path poolDir,
    long poolCapacityBytes,
    int chunkSize,
    String ownerHost,
    String bindHost,
    int port,
    String advertisedHost,
    String rack,
    int maxConnections,
    int socketTimeoutMillis,
    long gcPeriodMillis,
    long gcPeerUnreachableGraceMillis,
    int quotaChunksPerApplication,
    String zkQuorum,
    String zkRoot,
    int zkSessionTimeoutMillis,
    int zkConnectTimeoutMillis,
    long trackerPollMillis,
    int clientConnectTimeoutMillis,
    int clientReadTimeoutMillis) {

  public static final String BIND_HOST = "levee.sponge.server.bind-host";
  public static final String BIND_HOST_DEFAULT = "0.0.0.0";

  /**
   * TCP port; 0 picks a free one (tests). Every node should use the same port so owners can be
   * found by host.
   */
  public static final String PORT = "levee.sponge.server.port";

  public static final int PORT_DEFAULT = 7788;

  /**
   * The name other nodes reach this server by. Default: the owner host tasks use ({@code
   * levee.sponge.owner.host}).
   */
  public static final String ADVERTISED_HOST = "levee.sponge.server.advertised-host";

  /** Rack of this node for same-rack placement; empty when topology is unknown. */
  public static final String RACK = "levee.sponge.server.rack";

  public static final String MAX_CONNECTIONS = "levee.sponge.server.max-connections";
  public static final int MAX_CONNECTIONS_DEFAULT = 64;

  /** A connection idle (or stalled mid-frame) this long is closed. */
  public static final String SOCKET_TIMEOUT_MS = "levee.sponge.server.socket-timeout-ms";

  public static final int SOCKET_TIMEOUT_MS_DEFAULT = 60_000;
  public static final String GC_PERIOD_MS = "levee.sponge.server.gc-period-ms";
  public static final long GC_PERIOD_MS_DEFAULT = 5_000;

  /**
   * How long a remote owner's server may stay unreachable before that owner's chunks are reclaimed.
   */
  public static final String GC_PEER_GRACE_MS = "levee.sponge.server.gc-peer-unreachable-grace-ms";

  public static final long GC_PEER_GRACE_MS_DEFAULT = 60_000;

  /**
   * Most chunks one application may hold on one server for remote clients; 0 refuses all remote
   * allocation.
   */
  public static final String QUOTA_CHUNKS_PER_APP =
      "levee.sponge.server.quota.chunks-per-application";

  public static final int QUOTA_CHUNKS_PER_APP_DEFAULT = 1024;

  /** ZooKeeper connect string; empty runs the server alone (no registration, no tracker). */
  public static final String ZK_QUORUM = "levee.sponge.zookeeper.quorum";

  public static final String ZK_ROOT = "levee.sponge.zookeeper.root";
  public static final String ZK_ROOT_DEFAULT = "/levee/sponge";
  public static final String ZK_SESSION_TIMEOUT_MS = "levee.sponge.zookeeper.session-timeout-ms";
  public static final int ZK_SESSION_TIMEOUT_MS_DEFAULT = 30_000;

  /**
   * How long a task waits for ZooKeeper before it gives up remote memory for its whole life (local
   * memory and disk still serve): one bounded wait per task, never one per file.
   */
  public static final String ZK_CONNECT_TIMEOUT_MS = "levee.sponge.zookeeper.connect-timeout-ms";

  public static final int ZK_CONNECT_TIMEOUT_MS_DEFAULT = 2_000;
  public static final String TRACKER_POLL_MS = "levee.sponge.tracker.poll-period-ms";
  public static final long TRACKER_POLL_MS_DEFAULT = 1_000;

  public static final String CLIENT_CONNECT_TIMEOUT_MS = "levee.sponge.client.connect-timeout-ms";
  public static final int CLIENT_CONNECT_TIMEOUT_MS_DEFAULT = 5_000;
  public static final String CLIENT_READ_TIMEOUT_MS = "levee.sponge.client.read-timeout-ms";
  public static final int CLIENT_READ_TIMEOUT_MS_DEFAULT = 30_000;

  public static SpongeServerConfig from(Configuration conf) {
    // Pool geometry and the local owner name are shared with the tasks on the node: read them the
    // way tasks do.
    SpongeConfig sponge = SpongeConfig.from(conf);
    ConfigValues v = new ConfigValues(conf);
    String advertised = v.string(ADVERTISED_HOST, "");
    String rack = v.string(RACK, "");
    if (!rack.isEmpty() && (rack.equals("-") || rack.chars().anyMatch(Character::isWhitespace))) {
      throw ConfigValues.invalid(RACK, rack, "a rack name without whitespace, not '-'");
    }
    return new SpongeServerConfig(
        sponge.poolDir(),
        sponge.poolSize(),
        sponge.chunkSize(),
        sponge.ownerHost(),
        v.string(BIND_HOST, BIND_HOST_DEFAULT),
        v.intIn(PORT, PORT_DEFAULT, 0, 65535),
        advertised.isEmpty() ? sponge.ownerHost() : advertised,
        rack.isEmpty() ? null : rack,
        v.intIn(MAX_CONNECTIONS, MAX_CONNECTIONS_DEFAULT, 1, 10_000),
        v.intIn(SOCKET_TIMEOUT_MS, SOCKET_TIMEOUT_MS_DEFAULT, 100, Integer.MAX_VALUE),
        v.longIn(GC_PERIOD_MS, GC_PERIOD_MS_DEFAULT, 10, 86_400_000L),
        v.longIn(GC_PEER_GRACE_MS, GC_PEER_GRACE_MS_DEFAULT, 0, Long.MAX_VALUE),
        v.intIn(QUOTA_CHUNKS_PER_APP, QUOTA_CHUNKS_PER_APP_DEFAULT, 0, Integer.MAX_VALUE),
        v.string(ZK_QUORUM, ""),
        v.zkRoot(ZK_ROOT, ZK_ROOT_DEFAULT),
        v.intIn(ZK_SESSION_TIMEOUT_MS, ZK_SESSION_TIMEOUT_MS_DEFAULT, 1000, Integer.MAX_VALUE),
        v.intIn(ZK_CONNECT_TIMEOUT_MS, ZK_CONNECT_TIMEOUT_MS_DEFAULT, 100, 600_000),
        v.longIn(TRACKER_POLL_MS, TRACKER_POLL_MS_DEFAULT, 10, 3_600_000L),
        v.intIn(CLIENT_CONNECT_TIMEOUT_MS, CLIENT_CONNECT_TIMEOUT_MS_DEFAULT, 1, Integer.MAX_VALUE),
        v.intIn(CLIENT_READ_TIMEOUT_MS, CLIENT_READ_TIMEOUT_MS_DEFAULT, 1, Integer.MAX_VALUE));
  }

  public boolean zooKeeperEnabled() {
    return !zkQuorum.isEmpty();
  }
}
