package dev.levee.sponge.server;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.SpongeZnodes;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.discovery.ZooKeeperAcl;
import dev.levee.sponge.discovery.ZooKeeperClients;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.PoolDirectory;
import dev.levee.sponge.local.ServerLock;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.protocol.WireTls;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything one node runs for SpongeFiles: the pool, the TCP server, the garbage collector, and,
 * with ZooKeeper configured, its registration and its candidacy for memory tracker. The YARN aux
 * service and the standalone daemon are thin wrappers around this.
 */
public final class SpongeService implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeService.class);

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
  private ApplicationSecrets secrets;

  private SpongeService(
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
  public static SpongeService start(SpongeServerConfig cfg) throws IOException {
    Deque<Closeable> started = new ArrayDeque<>();
    try {
      // Before anything starts: a bad store stops the server here, naming its key and file.
      WireTls tls = cfg.tls().forServer();
      PoolDirectory poolDir = PoolDirectory.secure(cfg.poolDir(), PoolDirectory.currentUser());
      // Held for the server's lifetime, before the pool is opened: one server per pool.
      ServerLock serverLock = ServerLock.acquire(poolDir);
      started.push(serverLock);
      SharedMemoryPool pool =
          SharedMemoryPool.openAsServer(serverLock, cfg.poolCapacityBytes(), cfg.chunkSize());
      started.push(pool);
      byte[] clusterSecret = cfg.auth().clusterSecret();
      if (cfg.auth().required() && clusterSecret == null) {
        throw new IllegalArgumentException(
            SpongeConf.AUTH_REQUIRED.name()
                + " is true (the default) and needs "
                + SpongeConf.AUTH_SECRET_FILE.name()
                + ": servers prove the cluster secret to each other, and grant tasks the"
                + " application secrets derived from it. Create it once and copy it to every"
                + " node (head -c 32 /dev/urandom > /etc/hadoop/levee-sponge.secret; chmod 600 it,"
                + " as the NodeManager's user) and set "
                + SpongeConf.AUTH_SECRET_FILE.name()
                + " to its path, or set "
                + SpongeConf.AUTH_REQUIRED.name()
                + "=false to run unauthenticated (single-tenant clusters only)");
      }
      ApplicationSecrets secrets = new ApplicationSecrets(clusterSecret);
      ChunkGrants grants = new ChunkGrants();
      SpongeServerMetrics metrics = new SpongeServerMetrics(pool, grants::size);
      RemoteOwnerLeases remoteLeases = new RemoteOwnerLeases(System::currentTimeMillis);
      ChunkService service =
          new ChunkService(pool, grants, cfg.quotaChunksPerApplication(), metrics, remoteLeases);
      SpongeServer server =
          new SpongeServer(
              cfg.bindHost(),
              cfg.port(),
              cfg.maxConnections(),
              cfg.socketTimeoutMillis(),
              cfg.limits(),
              secrets,
              cfg.auth().required(),
              tls,
              service,
              metrics);
      started.push(server);
      int port = server.port();
      SpongeServerAddress self = new SpongeServerAddress(cfg.advertisedHost(), port, cfg.rack());
      RegisteredServers registered = new RegisteredServers(NodeNames.of(self), cfg.gcOwnerNodes());
      OwnerLiveness liveness = ownerLiveness(cfg, self, started, pool, registered, remoteLeases);
      service.answerIsAliveFromLeases(liveness::renewsHere);
      reclaimPreviousRun(cfg, pool, liveness);
      OrphanCollector collector =
          new OrphanCollector(pool, grants, liveness, metrics, remoteLeases);
      started.push(collector);
      MemoryTracker tracker =
          cfg.zooKeeperEnabled() ? joinCluster(cfg, self, started, registered) : null;

      server.start();
      collector.start(cfg.gcPeriodMillis());
      metrics.register(port);
      started.push(metrics::unregister);
      LOG.info(
          "sponge server {} serving {} chunks of {} bytes from {} (GC every {} ms, quota {}"
              + " chunks/app{}{})",
          self,
          pool.chunkCount(),
          pool.chunkSize(),
          cfg.poolDir(),
          cfg.gcPeriodMillis(),
          cfg.quotaChunksPerApplication(),
          cfg.zooKeeperEnabled()
              ? ", ZooKeeper " + cfg.zkQuorum() + cfg.zkRoot()
              : ", no ZooKeeper",
          tls != null ? ", TLS" : "");
      SpongeService node =
          new SpongeService(cfg, pool, metrics, service, self, collector, tracker, started);
      node.secrets = secrets;
      return node;
    } catch (IOException | RuntimeException e) {
      closeAll(started);
      throw e;
    }
  }

  /**
   * Who is alive: local owners by their process, remote owners by asking their node's server, which
   * the collector's own client reaches.
   */
  private static OwnerLiveness ownerLiveness(
      SpongeServerConfig cfg,
      SpongeServerAddress self,
      Deque<Closeable> started,
      SharedMemoryPool pool,
      RegisteredServers registered,
      RemoteOwnerLeases remoteLeases) {
    String nodeName = NodeNames.of(self);
    // Short timeouts, many probes at once: a silent owner node costs a GC round one probe timeout.
    SpongeClient peers =
        serverClient(cfg, nodeName, cfg.gcProbeTimeoutMillis(), cfg.gcProbeTimeoutMillis(), 2);
    started.push(peers);
    ExecutorService probes =
        Executors.newFixedThreadPool(
            cfg.gcProbeThreads(),
            r -> {
              Thread t = new Thread(r, "sponge-gc-probe");
              t.setDaemon(true);
              return t;
            });
    started.push(probes::shutdownNow);
    return new OwnerLiveness(
        new HashSet<>(
            List.of(cfg.ownerHost(), cfg.advertisedHost(), nodeName, ChunkOwner.localHostName())),
        cfg.port() == 0 ? self.port() : cfg.port(),
        peers,
        cfg.gcPeerUnreachableGraceMillis(),
        System::currentTimeMillis,
        pool::ownerLeaseHeld,
        registered,
        probes,
        cfg.gcProbeTimeoutMillis(),
        remoteLeases);
  }

  /**
   * Capabilities of remote chunks die with the server that issued them: free what a previous run of
   * this node's server handed out.
   */
  private static void reclaimPreviousRun(
      SpongeServerConfig cfg, SharedMemoryPool pool, OwnerLiveness liveness) throws IOException {
    int stale = pool.reclaim(o -> o.host().indexOf(':') > 0 && !liveness.isLocal(o));
    if (stale > 0) {
      LOG.info(
          "freed {} remote chunks left by a previous sponge server run in {}",
          stale,
          cfg.poolDir());
    }
  }

  /** Registers this server in ZooKeeper and stands for memory tracker. */
  private static MemoryTracker joinCluster(
      SpongeServerConfig cfg,
      SpongeServerAddress self,
      Deque<Closeable> started,
      RegisteredServers registered)
      throws IOException {
    byte[] clusterSecret = cfg.auth().clusterSecret();
    SpongeZnodes znodes = new SpongeZnodes(cfg.zkRoot());
    ZooKeeperAcl acl =
        clusterSecret == null ? null : ZooKeeperAcl.fromClusterSecret(clusterSecret, znodes.root());
    CuratorFramework zk = ZooKeeperClients.forServer(cfg, acl);
    zk.start();
    started.push(zk);
    if (acl != null) {
      try {
        acl.secure(zk, znodes);
      } catch (Exception e) {
        throw new IOException(
            "cannot secure the SpongeFiles znodes under "
                + znodes.root()
                + " in ZooKeeper "
                + cfg.zkQuorum()
                + " (another identity may own them: remove them or fix their ACL)",
            e);
      }
    }
    registered.useZooKeeper(zk, znodes);
    ServerRegistration registration = new ServerRegistration(zk, znodes, self);
    registration.start();
    started.push(registration);
    // The tracker polls every server each period: a silent one must not hold up the round.
    int probeTimeout =
        (int) Math.max(200, Math.min(cfg.clientReadTimeoutMillis(), 2 * cfg.trackerPollMillis()));
    SpongeClient trackerProbe =
        serverClient(
            cfg,
            NodeNames.of(self),
            Math.min(cfg.clientConnectTimeoutMillis(), probeTimeout),
            probeTimeout,
            1);
    started.push(trackerProbe);
    MemoryTracker tracker =
        new MemoryTracker(zk, znodes, NodeNames.of(self), trackerProbe, cfg.trackerPollMillis());
    started.push(tracker);
    tracker.start();
    return tracker;
  }

  /**
   * A client the server itself uses to reach other servers; it allocates nothing, and proves the
   * cluster secret when there is one.
   */
  private static SpongeClient serverClient(
      SpongeServerConfig cfg, String nodeName, int connectMillis, int readMillis, int inFlight) {
    byte[] clusterSecret;
    try {
      clusterSecret = cfg.auth().clusterSecret();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    ClientSettings settings =
        new ClientSettings(connectMillis, readMillis, cfg.chunkSize(), inFlight)
            .withTls(cfg.tls().forClient());
    if (clusterSecret != null) {
      settings =
          settings.withCredential(
              new Handshake.Credential(Handshake.Kind.SERVER, nodeName, clusterSecret));
    }
    return new SpongeClient(
        ClientIdentity.ofCurrentProcess(SERVER_APPLICATION, nodeName, cfg.rack()),
        new StaticServerList(List.of()),
        settings);
  }

  /**
   * The secrets this server checks handshakes against; the aux service registers each application's
   * here when it starts on the node.
   */
  public ApplicationSecrets secrets() {
    return secrets;
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
   * Frees this node's local chunks of every owner whose lease names a container {@code
   * containerMatches} accepts: the NodeManager's authoritative "container stopped" (or "application
   * finished") signal, which needs no liveness guess. Returns how many chunks were freed.
   */
  public int releaseContainers(Predicate<String> containerMatches, String why) {
    Set<Long> owners;
    try {
      owners = pool.ownersInContainers(containerMatches);
    } catch (IOException e) {
      LOG.warn("cannot list the owner leases in {}: {}", config.poolDir(), e.toString());
      return 0;
    }
    if (owners.isEmpty()) {
      return 0;
    }
    int n = pool.reclaim(o -> owners.contains(o.pid()));
    if (n > 0) {
      LOG.info("freed {} local chunks of {}", n, why);
    }
    return n;
  }

  /** Remote owners holding a lease with this server. */
  public int remoteOwnerLeases() {
    return service.remoteOwnerLeases().size();
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
