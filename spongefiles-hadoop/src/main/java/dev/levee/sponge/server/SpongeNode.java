package dev.levee.sponge.server;

import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.remote.SpongeServerAddress;
import dev.levee.sponge.remote.net.ClientIdentity;
import dev.levee.sponge.remote.net.ClientSettings;
import dev.levee.sponge.remote.net.NodeNames;
import dev.levee.sponge.remote.net.SpongeClient;
import dev.levee.sponge.remote.net.SpongeZnodes;
import dev.levee.sponge.remote.net.StaticServerList;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything one node runs for SpongeFiles: the pool, the TCP server, the garbage collector, and,
 * with ZooKeeper configured, its registration and its candidacy for memory tracker. The YARN aux
 * service and the standalone daemon are thin wrappers around this.
 */
public final class SpongeNode implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeNode.class);

  /** Application id the server's own probes present (they allocate nothing). */
  private static final String SERVER_APPLICATION = "sponge-server";

  private final SpongeServerConfig config;
  private final SharedMemoryPool pool;
  private final SpongeServerMetrics metrics;
  private final ChunkService service;
  private final SpongeServerAddress address;
  private final OrphanCollector collector;
  private final MemoryTracker tracker;
  private final Deque<Closeable> toClose;

  private SpongeNode(
      SpongeServerConfig config,
      SharedMemoryPool pool,
      SpongeServerMetrics metrics,
      ChunkService service,
      SpongeServerAddress address,
      OrphanCollector collector,
      MemoryTracker tracker,
      Deque<Closeable> toClose) {
    this.config = config;
    this.pool = pool;
    this.metrics = metrics;
    this.service = service;
    this.address = address;
    this.collector = collector;
    this.tracker = tracker;
    this.toClose = toClose;
  }

  /**
   * Opens (or attaches to) the node's pool and starts serving; on failure everything started is
   * stopped again.
   */
  public static SpongeNode start(SpongeServerConfig cfg) throws IOException {
    Deque<Closeable> started = new ArrayDeque<>();
    try {
      SharedMemoryPool pool =
          SharedMemoryPool.open(cfg.poolDir(), cfg.poolCapacityBytes(), cfg.chunkSize());
      started.push(pool);
      ChunkGrants grants = new ChunkGrants();
      SpongeServerMetrics metrics = new SpongeServerMetrics(pool, grants::size);
      ChunkService service =
          new ChunkService(pool, grants, cfg.quotaChunksPerApplication(), metrics);
      SpongeServer server =
          new SpongeServer(
              cfg.bindHost(),
              cfg.port(),
              cfg.maxConnections(),
              cfg.socketTimeoutMillis(),
              service,
              metrics);
      started.push(server);
      int port = server.port();
      SpongeServerAddress self = new SpongeServerAddress(cfg.advertisedHost(), port, cfg.rack());
      String nodeName = NodeNames.of(self);

      SpongeClient probe =
          new SpongeClient(
              ClientIdentity.ofCurrentProcess(SERVER_APPLICATION, nodeName, cfg.rack()),
              new StaticServerList(List.of()),
              new ClientSettings(
                  cfg.clientConnectTimeoutMillis(),
                  cfg.clientReadTimeoutMillis(),
                  cfg.chunkSize(),
                  2));
      started.push(probe);
      OwnerLiveness liveness =
          new OwnerLiveness(
              new HashSet<>(
                  List.of(
                      cfg.ownerHost(), cfg.advertisedHost(), nodeName, ChunkOwner.localHostName())),
              cfg.port() == 0 ? port : cfg.port(),
              probe,
              cfg.gcPeerUnreachableGraceMillis(),
              System::currentTimeMillis);
      // Capabilities of remote chunks die with the server that issued them: free what a previous
      // run handed out.
      int stale = pool.reclaim(o -> o.host().indexOf(':') > 0 && !liveness.isLocal(o));
      if (stale > 0) {
        LOG.info(
            "freed {} remote chunks left by a previous sponge server run in {}",
            stale,
            cfg.poolDir());
      }
      OrphanCollector collector = new OrphanCollector(pool, grants, liveness, metrics);
      started.push(collector);

      MemoryTracker tracker = null;
      if (cfg.zooKeeperEnabled()) {
        CuratorFramework zk =
            CuratorFrameworkFactory.builder()
                .connectString(cfg.zkQuorum())
                .sessionTimeoutMs(cfg.zkSessionTimeoutMillis())
                .connectionTimeoutMs(Math.min(15_000, cfg.zkSessionTimeoutMillis()))
                .retryPolicy(new ExponentialBackoffRetry(200, 10, 5_000))
                .build();
        zk.start();
        started.push(zk);
        SpongeZnodes znodes = new SpongeZnodes(cfg.zkRoot());
        ServerRegistration registration = new ServerRegistration(zk, znodes, self);
        registration.start();
        started.push(registration);
        int probeTimeout =
            (int)
                Math.max(200, Math.min(cfg.clientReadTimeoutMillis(), 2 * cfg.trackerPollMillis()));
        SpongeClient trackerProbe =
            new SpongeClient(
                ClientIdentity.ofCurrentProcess(SERVER_APPLICATION, nodeName, cfg.rack()),
                new StaticServerList(List.of()),
                new ClientSettings(
                    Math.min(cfg.clientConnectTimeoutMillis(), probeTimeout),
                    probeTimeout,
                    cfg.chunkSize(),
                    1));
        started.push(trackerProbe);
        tracker = new MemoryTracker(zk, znodes, nodeName, trackerProbe, cfg.trackerPollMillis());
        started.push(tracker);
        tracker.start();
      }

      server.start();
      collector.start(cfg.gcPeriodMillis());
      metrics.register(port);
      started.push(metrics::unregister);
      LOG.info(
          "sponge server {} serving {} chunks of {} bytes from {} (GC every {} ms, quota {} chunks/app{})",
          self,
          pool.chunkCount(),
          pool.chunkSize(),
          cfg.poolDir(),
          cfg.gcPeriodMillis(),
          cfg.quotaChunksPerApplication(),
          cfg.zooKeeperEnabled()
              ? ", ZooKeeper " + cfg.zkQuorum() + cfg.zkRoot()
              : ", no ZooKeeper");
      return new SpongeNode(cfg, pool, metrics, service, self, collector, tracker, started);
    } catch (IOException | RuntimeException e) {
      closeAll(started);
      throw e;
    }
  }

  public SpongeServerAddress address() {
    return address;
  }

  /** {@code host:port}: the owner node name remote clients of this node put in their chunks. */
  public String nodeName() {
    return NodeNames.of(address);
  }

  public SpongeServerMetricsMBean metrics() {
    return metrics;
  }

  public SpongeServerConfig config() {
    return config;
  }

  /** Whether this node currently runs the cluster's memory tracker. */
  public boolean isTracker() {
    return tracker != null && tracker.isLeader();
  }

  /** Frees the chunks an application holds on this server; returns how many. */
  public int releaseApplication(String applicationId) {
    int n = service.releaseApplication(applicationId);
    if (n > 0) {
      LOG.info("freed {} chunks of finished application {}", n, applicationId);
    }
    return n;
  }

  /**
   * Runs one garbage collection round now (also runs on its own every GC period); returns chunks
   * freed.
   */
  public int collectGarbage() {
    return collector.collect();
  }

  @Override
  public void close() {
    closeAll(toClose);
  }

  private static void closeAll(Deque<Closeable> started) {
    while (!started.isEmpty()) {
      Closeable c = started.pop();
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("error stopping sponge server part {}: {}", c, e.toString());
      }
    }
  }
}
