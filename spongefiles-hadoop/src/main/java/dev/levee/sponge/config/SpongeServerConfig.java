package dev.levee.sponge.config;

import dev.levee.config.ConfigSource;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/**
 * Settings of one sponge server and of the clients that reach servers, read through {@link
 * SpongeConf} from {@code yarn-site.xml} (the aux service), {@code core-site.xml} or {@code -D}
 * (the daemon), or a task's job configuration. The pool keys are the tasks' own ({@link
 * SpongeConfig}); the server and every task on a node must agree on them.
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
    int clientReadTimeoutMillis,
    // trust (issue 13)
    List<String> gcOwnerNodes,
    int gcProbeTimeoutMillis,
    int gcProbeThreads,
    ServerLimits limits,
    WireAuthConfig auth,
    WireTlsConfig tls) {

  public static SpongeServerConfig from(Configuration conf) {
    // Pool geometry and the local owner name are shared with the tasks on the node: read them the
    // way tasks do.
    SpongeConfig sponge = SpongeConfig.from(conf);
    ConfigSource s = SpongeConf.source(conf);
    String advertised = SpongeConf.ADVERTISED_HOST.from(s);
    String rack = SpongeConf.RACK.from(s);
    return new SpongeServerConfig(
        sponge.poolDir(),
        sponge.poolSize(),
        sponge.chunkSize(),
        sponge.ownerHost(),
        SpongeConf.BIND_HOST.from(s),
        SpongeConf.PORT.from(s),
        advertised.isEmpty() ? sponge.ownerHost() : advertised,
        rack.isEmpty() ? null : rack,
        SpongeConf.MAX_CONNECTIONS.from(s),
        SpongeConf.SOCKET_TIMEOUT_MS.from(s),
        SpongeConf.GC_PERIOD_MS.from(s),
        SpongeConf.GC_PEER_GRACE_MS.from(s),
        SpongeConf.QUOTA_CHUNKS_PER_APP.from(s),
        SpongeConf.ZK_QUORUM.from(s),
        SpongeConf.ZK_ROOT.from(s),
        SpongeConf.ZK_SESSION_TIMEOUT_MS.from(s),
        SpongeConf.ZK_CONNECT_TIMEOUT_MS.from(s),
        SpongeConf.TRACKER_POLL_MS.from(s),
        SpongeConf.CLIENT_CONNECT_TIMEOUT_MS.from(s),
        SpongeConf.CLIENT_READ_TIMEOUT_MS.from(s),
        Arrays.stream(SpongeConf.GC_OWNER_NODES.from(s).split(","))
            .map(String::trim)
            .filter(n -> !n.isEmpty())
            .toList(),
        SpongeConf.GC_PROBE_TIMEOUT_MS.from(s),
        SpongeConf.GC_PROBE_THREADS.from(s),
        ServerLimits.from(s),
        WireAuthConfig.from(s),
        WireTlsConfig.from(conf, s));
  }

  public boolean zooKeeperEnabled() {
    return !zkQuorum.isEmpty();
  }
}
