package dev.levee.sponge;

import dev.levee.sponge.client.RemoteMemory;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeConfig;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.placement.PlacementPolicy;
import dev.levee.sponge.placement.Placements;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.tier.ChunkTier;
import dev.levee.sponge.tier.DfsTier;
import dev.levee.sponge.tier.LocalDiskTier;
import dev.levee.sponge.tier.LocalMemoryTier;
import dev.levee.sponge.tier.RemoteMemoryTier;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entry point callers create {@link SpongeFile}s from: one per process (a task JVM), holding
 * what files share (the attached local sponge pool, the remote memory client, the DFS client, the
 * I/O threads, recycled buffers and the metrics). Reduce-side merges, Pig bags and map-side spills
 * all take files from here, so they share placement, accounting and cleanup.
 *
 * <p>Closing it deletes the files its callers forgot, so a task that exits cleanly leaves no chunk
 * behind; chunks of a task that dies are reclaimed by the node's sponge server.
 */
public final class SpongeFileSystem implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(SpongeFileSystem.class);

  private final SpongeConfig config;
  private final SharedMemoryPool pool;

  /** This node's sponge server, when local chunks go through it instead of {@link #pool}. */
  private final SpongeServerAddress localServer;

  /** Closed with this object; {@link #remote} is the same client when that tier is enabled. */
  private final RemoteMemory client;

  private final RemoteMemory remote;
  private final PlacementPolicy placement;
  private final FileSystem dfs;
  private final org.apache.hadoop.fs.Path dfsDir;
  private final ChunkOwner owner;
  private final SpongeMetrics metrics = new SpongeMetrics();
  private final ExecutorService executor;
  private final BackgroundFrees frees = new BackgroundFrees();
  private final ChunkBuffers buffers;
  private final String instance = UUID.randomUUID().toString().substring(0, 8);

  /** Servers a read of any of this file system's files failed on; see {@code RemoteMemoryTier}. */
  private final Set<SpongeServerAddress> failedReads = ConcurrentHashMap.newKeySet();

  private final AtomicLong nextId = new AtomicLong();
  private final AtomicInteger nextDiskDir = new AtomicInteger();
  private final Map<Long, SpongeFile> live = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private SpongeFileSystem(
      SpongeConfig config,
      SharedMemoryPool pool,
      SpongeServerAddress localServer,
      RemoteMemory client,
      PlacementPolicy placement,
      FileSystem dfs,
      org.apache.hadoop.fs.Path dfsDir) {
    this.config = config;
    this.pool = pool;
    this.localServer = localServer;
    this.client = client;
    this.remote = config.remoteEnabled() ? client : null;
    this.placement = placement;
    this.dfs = dfs;
    this.dfsDir = dfsDir;
    this.owner = ChunkOwner.currentProcess(config.ownerHost());
    this.executor = Executors.newCachedThreadPool(daemonThreads());
    this.buffers = new ChunkBuffers(config.chunkSize(), 2 * (config.maxInFlightWrites() + 2));
  }

  /**
   * Attaches the local sponge pool (creating it if this is the node's first user: tools and tests
   * that own the pool; tasks served by a sponge server use the overload that never creates) and
   * resolves the DFS directory.
   *
   * @param hadoopConf resolves the DFS tier's file system
   * @param remote the cluster's remote sponges, or {@code null} to skip that tier; closed with this
   *     object
   * @throws IOException when an enabled local pool cannot be attached (for example its geometry
   *     differs from the configuration) or the DFS directory's file system cannot be created;
   *     callers fall back to stock spilling
   */
  public static SpongeFileSystem open(
      SpongeConfig config, Configuration hadoopConf, RemoteMemory remote) throws IOException {
    return open(config, hadoopConf, remote, null);
  }

  /**
   * As {@link #open(SpongeConfig, Configuration, RemoteMemory)} for a task on a node whose sponge
   * server answered at {@code nodeServer}: the local pool is only attached, never created (only
   * that server may start it, {@link SharedMemoryPool#attach}), and where this process may not map
   * it ({@code levee.sponge.local.access}), its chunks go to that server over loopback instead
   * ({@link Tier#LOCAL_SERVER}) through {@code client}.
   *
   * @param client the task's sponge client, used for remote memory only if that tier is enabled;
   *     closed with this object
   * @param nodeServer this node's sponge server, or {@code null} when there is none (tools and
   *     tests that own the pool, which is then created if missing)
   */
  public static SpongeFileSystem open(
      SpongeConfig config,
      Configuration hadoopConf,
      RemoteMemory client,
      SpongeServerAddress nodeServer)
      throws IOException {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(hadoopConf, "hadoopConf");
    LocalPoolAccess local = LocalPoolAccess.choose(config, client, nodeServer);
    SharedMemoryPool pool = local.pool();
    try {
      FileSystem dfs = null;
      org.apache.hadoop.fs.Path dfsDir = null;
      if (config.dfsEnabled()) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(config.dfsDir());
        dfs = p.getFileSystem(hadoopConf);
        dfsDir = dfs.makeQualified(p);
      }
      return new SpongeFileSystem(
          config, pool, local.server(), client, Placements.fromConf(hadoopConf), dfs, dfsDir);
    } catch (IOException | RuntimeException e) {
      if (pool != null) {
        pool.close();
      }
      throw e;
    }
  }

  /** Reads {@link SpongeConfig} from {@code conf} and opens with it. */
  public static SpongeFileSystem open(Configuration conf, RemoteMemory remote) throws IOException {
    return open(SpongeConfig.from(conf), conf, remote);
  }

  /**
   * Creates an empty file; write it through {@link SpongeFile#output()}. The remote server list is
   * fetched now, once per file, as the paper prescribes: a file's placement works from that
   * snapshot even if it goes stale.
   *
   * @param label what the file holds (for logs and errors), e.g. {@code
   *     "attempt_x_r_000003/merge-7"}
   */
  public SpongeFile create(String label) throws IOException {
    ensureOpen();
    long id = nextId.incrementAndGet();
    String name = label + "#" + id;
    Map<Tier, ChunkTier> tiers = new EnumMap<>(Tier.class);
    if (pool != null) {
      tiers.put(Tier.LOCAL_MEMORY, new LocalMemoryTier(pool, owner));
    }
    if (localServer != null) {
      tiers.put(
          Tier.LOCAL_SERVER, RemoteMemoryTier.throughLocalServer(client, localServer, metrics));
    }
    if (remote != null) {
      List<ServerListEntry> servers = remoteServers(name);
      if (!servers.isEmpty()) {
        tiers.put(
            Tier.REMOTE_MEMORY,
            new RemoteMemoryTier(
                remote, placement.newFile(servers), metrics, config.remoteReplicas(), failedReads));
      }
    }
    String fileName = "levee-sponge-" + owner.pid() + "-" + instance + "-" + id;
    if (config.diskEnabled()) {
      tiers.put(Tier.LOCAL_DISK, new LocalDiskTier(nextDiskDir().resolve(fileName + ".chunks")));
    }
    if (dfs != null) {
      tiers.put(
          Tier.DFS,
          new DfsTier(
              dfs,
              new org.apache.hadoop.fs.Path(dfsDir, owner.host() + "-" + fileName + ".chunks")));
    }
    SpongeFile file = new SpongeFile(this, id, name, tiers);
    live.put(id, file);
    metrics.fileCreated();
    return file;
  }

  public SpongeConfig config() {
    return config;
  }

  public SpongeMetrics metrics() {
    return metrics;
  }

  /** This process as it appears in chunk owner entries. */
  public ChunkOwner owner() {
    return owner;
  }

  /** This node's sponge server when local chunks go through it ({@link Tier#LOCAL_SERVER}). */
  public Optional<SpongeServerAddress> localServer() {
    return Optional.ofNullable(localServer);
  }

  /** The attached local sponge pool, if that tier is enabled and this process maps it. */
  public Optional<SharedMemoryPool> localPool() {
    return Optional.ofNullable(pool);
  }

  /** Files created and not yet deleted. */
  public int openFiles() {
    return live.size();
  }

  /**
   * Deletes every file still alive, waits for the frees still running in the background (at most
   * {@code levee.sponge.free.close-wait-ms}; the sponge servers reclaim what is left), stops the
   * I/O threads, detaches the pool and closes the remote client. The metrics are final once this
   * returns.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    for (SpongeFile f : new ArrayList<>(live.values())) {
      f.deleteInBackground();
    }
    long start = System.nanoTime();
    int abandoned = frees.stop(config.freeCloseWaitMillis());
    metrics.closeWaitedForFrees(System.nanoTime() - start, abandoned);
    if (abandoned > 0) {
      LOG.warn(
          "{} sponge file frees still running after {} ms ({}); leaving their chunks to the sponge"
              + " servers, which reclaim them once this task's owner lease lapses",
          abandoned,
          config.freeCloseWaitMillis(),
          SpongeConf.FREE_CLOSE_WAIT_MS.name());
    }
    executor.shutdown();
    if (pool != null) {
      pool.close();
    }
    if (client != null) {
      client.close();
    }
  }

  /** Frees still running in the background. */
  public int pendingFrees() {
    return frees.pending();
  }

  // --- shared with files ---

  ExecutorService executor() {
    return executor;
  }

  ChunkBuffers buffers() {
    return buffers;
  }

  /** Runs a deleted file's frees in the background ({@link SpongeFile#deleteInBackground}). */
  void freeInBackground(Runnable free) {
    frees.submit(free);
  }

  void forget(SpongeFile file) {
    live.remove(file.id());
  }

  private List<ServerListEntry> remoteServers(String name) {
    try {
      return remote.serverHints();
    } catch (IOException | RuntimeException e) {
      metrics.error(Tier.REMOTE_MEMORY);
      LOG.warn(
          "sponge file {}: could not get the list of servers with free memory; skipping remote"
              + " memory for it",
          name,
          e);
      return List.of();
    }
  }

  /** Round-robin over the disk dirs, skipping ones that cannot be created (a failed disk). */
  private Path nextDiskDir() {
    List<Path> dirs = config.diskDirs();
    int start = Math.floorMod(nextDiskDir.getAndIncrement(), dirs.size());
    for (int i = 0; i < dirs.size(); i++) {
      Path d = dirs.get((start + i) % dirs.size());
      try {
        Files.createDirectories(d);
        if (Files.isWritable(d)) {
          return d;
        }
      } catch (IOException e) {
        LOG.warn("sponge disk dir {} is unusable; trying the next one", d, e);
      }
    }
    return dirs.get(start); // every dir is bad: the tier will fail and the file moves on to DFS
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("sponge file system is closed");
    }
  }

  private static ThreadFactory daemonThreads() {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, "levee-sponge-io-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
