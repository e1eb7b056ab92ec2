package dev.levee.bench.hadoop.sponge;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.disk.DiskPlace;
import dev.levee.bench.disk.MountTable;
import dev.levee.bench.progress.ProgressReporter;
import dev.levee.bench.results.RepoLayout;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.Tier;
import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * {@code sponge-micro}: the paper's Table 1. Spills one 1 MiB buffer N times to each medium (local
 * shared memory, the local sponge server's socket, a remote sponge server in another process over
 * loopback, disk at random offsets, disk under background I/O, optionally plus memory pressure),
 * reads every chunk back, and reports ms per chunk and MB/s next to the machine's measured physical
 * limits.
 *
 * <p>The two sponge servers are separate JVMs running the standalone daemon, each with its own
 * pool, so "local" and "remote" are two nodes that happen to share a host; node A's pool is also
 * the local pool the bench maps directly.
 */
public final class SpongeMicroSuite implements Suite {
  static final String LOOPBACK = "127.0.0.1";
  private static final String APPLICATION = "application_0_0001";

  @Override
  public String name() {
    return "sponge-micro";
  }

  @Override
  public String summary() {
    return "SpongeFiles Table 1: spill a 1 MiB buffer N times to shared memory, sponge servers and disk";
  }

  @Override
  public Object newOptions() {
    return new MicroSettings.Options();
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    MicroSettings.Options options = context.options(MicroSettings.Options.class);
    MicroSettings s = MicroSettings.from(options);
    PrintStream err = context.err();
    // Refuse a memory-backed "disk" before starting anything.
    if (s.media().stream().anyMatch(Medium::usesDisk)) {
      MountTable.Mount m = MountTable.current().requireDisk("disk-dir", s.diskDir());
      err.printf(
          "sponge-micro: disk chunks go to %s (%s on %s, mounted at %s)%n",
          s.diskDir(), m.type(), m.device(), m.mountPoint());
    }
    Path limitsDir =
        s.limitsDir().isEmpty() ? RepoLayout.defaultResultsDir() : Path.of(s.limitsDir());
    PhysicalLimits limits = PhysicalLimits.load(limitsDir);
    if (limits.isEmpty()) {
      err.println(
          "sponge-micro: no physical-limits results in "
              + limitsDir
              + "; run 'BenchMain physical-limits' to"
              + " get fractions of memcpy / loopback TCP / disk");
    }
    List<Row> rows = new ArrayList<>();
    String disk;
    long pid = ProcessHandle.current().pid();
    // On --disk emulated every disk file of the run (chunks, background load, servers' disk tier)
    // shares the one emulated spindle, as they would share a node's disk.
    try (DiskPlace place = options.disk.open(s.diskDir(), err);
        Cleanup cleanup = new Cleanup(err)) {
      Map<String, Object> params = new LinkedHashMap<>(s.params());
      params.putAll(place.params());
      disk = place.label();
      Path shmBase = Path.of("/dev/shm", "levee-sponge-micro-" + pid);
      Path diskBase = place.dir().resolve("levee-sponge-micro-" + pid);
      cleanup.addStep(() -> deleteRecursively(shmBase));
      cleanup.addStep(() -> deleteRecursively(diskBase));
      Files.createDirectories(shmBase);
      Nodes nodes = new Nodes(s, shmBase, diskBase, cleanup, err);
      boolean secured =
          s.media().contains(Medium.REMOTE_SPONGEFILE_AUTH)
              || s.media().contains(Medium.REMOTE_SPONGEFILE_TLS);
      for (int rep = 0; rep < s.repetitions(); rep++) {
        for (Medium medium : s.media()) {
          Row row =
              runMedium(
                  medium, s, nodes, diskBase, cleanup, context, limits, place.isEmulated(), rep);
          rows.add(row);
          // On the emulated disk the disk media get their own variants, so that their lines never
          // stand in for the real disk's.
          String variant =
              place.isEmulated() && medium.usesDisk()
                  ? medium.variant + "-emulated"
                  : medium.variant;
          context.record(variant, params, row.metrics(), rep);
        }
        if (secured) {
          recordConnectionSetup(nodes.connectionSetup(CONNECTIONS), params, context, rep);
        }
      }
    }
    new ResultTable(rows, s, disk).print(context.out());
  }

  /** Fresh connections per server in the connection-setup measurement. */
  private static final int CONNECTIONS = 200;

  private static void recordConnectionSetup(
      Map<String, ChunkLatencies> setup,
      Map<String, Object> params,
      SuiteContext context,
      int rep) {
    for (Map.Entry<String, ChunkLatencies> e : setup.entrySet()) {
      ChunkLatencies t = e.getValue();
      Map<String, Double> m = new LinkedHashMap<>();
      m.put("connections", (double) t.count());
      m.put("setup_ms_median", t.medianMillis());
      m.put("setup_ms_p99", t.percentileMillis(0.99));
      m.put("setup_ms_mean", t.meanMillis());
      context.record(e.getKey(), params, m, rep);
      context
          .err()
          .printf(
              Locale.ROOT,
              "sponge-micro: %s: %d fresh connections to their first reply, median %.2f ms,"
                  + " p99 %.2f ms%n",
              e.getKey(),
              t.count(),
              t.medianMillis(),
              t.percentileMillis(0.99));
    }
  }

  private Row runMedium(
      Medium medium,
      MicroSettings s,
      Nodes nodes,
      Path diskBase,
      Cleanup cleanup,
      SuiteContext context,
      PhysicalLimits limits,
      boolean emulatedDisk,
      int rep)
      throws Exception {
    BackgroundDiskLoad background = null;
    MemoryPressure pressure = null;
    ChunkSink sink = null;
    try {
      if (medium == Medium.DISK_BACKGROUND_IO_MEMORY) {
        context
            .err()
            .printf("sponge-micro: pinning %d MiB of memory%n", s.memoryPressureBytes() >> 20);
        pressure =
            MemoryPressure.pin(
                "memory-pressure", nodes.shmBase.resolve("pressure"), s.memoryPressureBytes());
      }
      if (medium.hasBackgroundIo()) {
        background =
            BackgroundDiskLoad.start(
                diskBase.resolve("background"), s.backgroundStreams(), s.backgroundFileBytes());
        Thread.sleep(1_000); // let the streams reach the disk before the first timed write
      }
      sink = nodes.sink(medium, rep);
      BackgroundDiskLoad bg = background;
      SpillRun.Result r;
      try (ProgressReporter progress =
          context.progress("sponge-micro " + medium.variant, s.chunks(), "chunks")) {
        r =
            SpillRun.run(
                sink,
                s.chunks(),
                s.chunkSize(),
                progress,
                () -> {
                  if (bg != null) {
                    bg.checkAlive();
                  }
                });
      }
      double backgroundMbPerS = background == null ? Double.NaN : background.mbPerSecond();
      return new Row(
          medium,
          r,
          limitFor(medium, limits, emulatedDisk),
          backgroundMbPerS,
          sink instanceof RandomOffsetDiskSink d ? d.readsDirect() : null,
          pressure == null ? 0 : pressure.bytes());
    } finally {
      try (AutoCloseable a = sink;
          AutoCloseable b = background;
          AutoCloseable c = pressure) {
        // closed in reverse: pressure, background, sink
      }
    }
  }

  /** On the emulated disk, disk media are measured against the emulated disk's own limit. */
  static PhysicalLimits.Limit limitFor(Medium medium, PhysicalLimits limits, boolean emulatedDisk) {
    return switch (medium.yardstick) {
      case MEMCPY -> limits.best("memcpy", "memcpy-heap", "memcpy-direct");
      case TCP -> limits.best("loopback TCP", "tcp-loopback");
      case DISK ->
          emulatedDisk
              ? limits.best("emulated disk write+fsync", "disk-write-fsync-emulated")
              : limits.best("disk write+fsync", "disk-write-fsync");
    };
  }

  /**
   * The pools, servers and client of the run, started when a medium first needs them and stopped by
   * cleanup.
   */
  private static final class Nodes {
    private final MicroSettings s;
    private final Path shmBase;
    private final Path diskBase;
    private final Cleanup cleanup;
    private final PrintStream err;
    private final Path localPoolDir;
    private final long poolBytes;
    private SharedMemoryPool localPool;
    private SpongeServerProcess localServer;
    private SpongeServerProcess remoteServer;
    private SpongeServerProcess secondRemoteServer;
    private SpongeServerProcess authServer;
    private SpongeServerProcess tlsServer;
    private SecuredWire secured;
    private SpongeClient client;

    Nodes(MicroSettings s, Path shmBase, Path diskBase, Cleanup cleanup, PrintStream err) {
      this.s = s;
      this.shmBase = shmBase;
      this.diskBase = diskBase;
      this.cleanup = cleanup;
      this.err = err;
      this.localPoolDir = shmBase.resolve("node-a");
      this.poolBytes = (long) s.batch() * s.chunkSize();
    }

    ChunkSink sink(Medium medium, int rep) throws IOException {
      return switch (medium) {
        case LOCAL_SHM ->
            new SharedMemorySink(localPool(), ChunkOwner.currentProcess(LOOPBACK), s.batch());
        case LOCAL_SPONGEFILE ->
            new SpongeFileSink(localOnlyFileSystem(), Tier.LOCAL_MEMORY, s.batch());
        case LOCAL_SERVER ->
            new RemoteSpongeSink(client(), localServer().address(), s.batch(), s.chunkSize());
        case REMOTE_SERVER ->
            new RemoteSpongeSink(client(), remoteServer().address(), s.batch(), s.chunkSize());
        case REMOTE_SPONGEFILE ->
            new SpongeFileSink(remoteOnlyFileSystem(1), Tier.REMOTE_MEMORY, s.batch());
        case REMOTE_SPONGEFILE_TWO_COPIES ->
            new SpongeFileSink(remoteOnlyFileSystem(2), Tier.REMOTE_MEMORY, s.batch());
        case REMOTE_SPONGEFILE_AUTH ->
            new SpongeFileSink(
                remoteOnlyFileSystem(
                    List.of(authServer().address()), 1, secured().credential(APPLICATION), null),
                Tier.REMOTE_MEMORY,
                s.batch());
        case REMOTE_SPONGEFILE_TLS ->
            new SpongeFileSink(
                remoteOnlyFileSystem(
                    List.of(tlsServer().address()),
                    1,
                    secured().credential(APPLICATION),
                    secured().clientTls()),
                Tier.REMOTE_MEMORY,
                s.batch());
        case DISK, DISK_BACKGROUND_IO, DISK_BACKGROUND_IO_MEMORY ->
            new RandomOffsetDiskSink(
                diskBase.resolve(medium.variant + "-" + rep + ".dat"),
                s.chunkSize(),
                s.diskFileBytes(),
                s.batch(),
                31L * rep + medium.ordinal());
      };
    }

    private SharedMemoryPool localPool() throws IOException {
      if (localPool == null) {
        localPool = cleanup.add(SharedMemoryPool.open(localPoolDir, poolBytes, s.chunkSize()));
      }
      return localPool;
    }

    private SpongeFileSystem localOnlyFileSystem() throws IOException {
      Configuration conf = new Configuration(false);
      conf.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(s.chunkSize()));
      conf.set(SpongeConf.LOCAL_POOL_DIR.name(), localPoolDir.toString());
      conf.set(SpongeConf.LOCAL_POOL_SIZE.name(), Long.toString(poolBytes));
      conf.set(SpongeConf.OWNER_HOST.name(), LOOPBACK);
      conf.setBoolean(SpongeConf.REMOTE_ENABLED.name(), false);
      conf.setBoolean(SpongeConf.DISK_ENABLED.name(), false);
      conf.setBoolean(SpongeConf.DFS_ENABLED.name(), false);
      return SpongeFileSystem.open(conf, null);
    }

    /**
     * A task on node A whose only tier is remote memory, with node B as the one server on its list
     * (A, its own node, is dropped from the list by the client as in production). Its own client:
     * the file system closes it. With two copies, node C holds the second.
     */
    private SpongeFileSystem remoteOnlyFileSystem(int copies) throws IOException {
      List<SpongeServerAddress> servers = new java.util.ArrayList<>();
      servers.add(remoteServer().address());
      if (copies > 1) {
        servers.add(secondRemoteServer().address());
      }
      return remoteOnlyFileSystem(servers, copies, null, null);
    }

    /** As above, on {@code servers}, proving {@code credential} and over {@code tls} if given. */
    private SpongeFileSystem remoteOnlyFileSystem(
        List<SpongeServerAddress> onList,
        int copies,
        dev.levee.sponge.protocol.Handshake.Credential credential,
        dev.levee.sponge.protocol.WireTls tls)
        throws IOException {
      Configuration conf = new Configuration(false);
      conf.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(s.chunkSize()));
      conf.set(SpongeConf.OWNER_HOST.name(), LOOPBACK);
      conf.setBoolean(SpongeConf.LOCAL_ENABLED.name(), false);
      conf.setBoolean(SpongeConf.REMOTE_ENABLED.name(), true);
      conf.setBoolean(SpongeConf.DISK_ENABLED.name(), false);
      conf.setBoolean(SpongeConf.DFS_ENABLED.name(), false);
      conf.setInt(SpongeConf.WRITE_MAX_IN_FLIGHT.name(), s.inFlight());
      conf.setInt(SpongeConf.REMOTE_REPLICAS.name(), copies);
      int chunks = (int) (poolBytes / s.chunkSize());
      List<ServerListEntry> servers = new java.util.ArrayList<>();
      for (SpongeServerAddress a : onList) {
        servers.add(new ServerListEntry(a, chunks, chunks));
      }
      ClientSettings settings = new ClientSettings(5_000, 60_000, s.chunkSize(), 2);
      if (credential != null) {
        settings = settings.withCredential(credential);
      }
      if (tls != null) {
        settings = settings.withTls(tls);
      }
      SpongeClient taskClient =
          new SpongeClient(
              ClientIdentity.ofCurrentProcess(
                  APPLICATION, NodeNames.of(localServer().address()), null),
              new StaticServerList(servers),
              settings);
      try {
        return SpongeFileSystem.open(conf, taskClient);
      } catch (IOException | RuntimeException e) {
        taskClient.close();
        throw e;
      }
    }

    private SpongeServerProcess localServer() throws IOException {
      if (localServer == null) {
        localServer = startServer("node-a", localPoolDir);
      }
      return localServer;
    }

    private SpongeServerProcess remoteServer() throws IOException {
      if (remoteServer == null) {
        remoteServer = startServer("node-b", shmBase.resolve("node-b"));
      }
      return remoteServer;
    }

    private SpongeServerProcess secondRemoteServer() throws IOException {
      if (secondRemoteServer == null) {
        secondRemoteServer = startServer("node-c", shmBase.resolve("node-c"));
      }
      return secondRemoteServer;
    }

    /** Node D: a server that requires authentication, as a default install's does. */
    private SpongeServerProcess authServer() throws IOException {
      if (authServer == null) {
        authServer =
            startServer("node-d", shmBase.resolve("node-d"), secured().serverSettings(false));
      }
      return authServer;
    }

    /** Node E: authentication and TLS. */
    private SpongeServerProcess tlsServer() throws IOException {
      if (tlsServer == null) {
        tlsServer =
            startServer("node-e", shmBase.resolve("node-e"), secured().serverSettings(true));
      }
      return tlsServer;
    }

    private SecuredWire secured() throws IOException {
      if (secured == null) {
        secured = SecuredWire.in(shmBase.resolve("secured"));
      }
      return secured;
    }

    /**
     * The price of a connection, the one cost authentication and TLS add per connection rather than
     * per chunk: {@code n} fresh connections, each up to its first reply (FREE_SPACE, after the
     * handshake where one is required), to the plain, the authenticated and the TLS server.
     */
    Map<String, ChunkLatencies> connectionSetup(int n) throws IOException {
      Map<String, ChunkLatencies> out = new LinkedHashMap<>();
      out.put("connect-plain", setup(remoteServer().address(), null, null, n));
      out.put(
          "connect-auth",
          setup(authServer().address(), secured().credential(APPLICATION), null, n));
      out.put(
          "connect-tls",
          setup(
              tlsServer().address(), secured().credential(APPLICATION), secured().clientTls(), n));
      return out;
    }

    private ChunkLatencies setup(
        SpongeServerAddress server,
        dev.levee.sponge.protocol.Handshake.Credential credential,
        dev.levee.sponge.protocol.WireTls tls,
        int n)
        throws IOException {
      ClientSettings settings = new ClientSettings(5_000, 60_000, s.chunkSize(), 1);
      if (credential != null) {
        settings = settings.withCredential(credential);
      }
      if (tls != null) {
        settings = settings.withTls(tls);
      }
      ChunkLatencies times = new ChunkLatencies(n);
      long wall = System.nanoTime();
      for (int i = 0; i < n; i++) {
        long t = System.nanoTime();
        try (SpongeClient c =
            new SpongeClient(
                ClientIdentity.ofCurrentProcess(
                    APPLICATION, NodeNames.of(localServer().address()), null),
                new StaticServerList(List.of()),
                settings)) {
          c.freeSpace(server);
        }
        times.add(System.nanoTime() - t);
      }
      times.addWallNanos(System.nanoTime() - wall);
      return times;
    }

    private SpongeServerProcess startServer(String name, Path poolDir) throws IOException {
      return startServer(name, poolDir, Map.of());
    }

    private SpongeServerProcess startServer(String name, Path poolDir, Map<String, String> extra)
        throws IOException {
      Path log = shmBase.resolve(name + ".log");
      Map<String, String> settings = new LinkedHashMap<>();
      // The whole pool is the benchmark's: no quota below a batch.
      settings.put(
          SpongeConf.QUOTA_CHUNKS_PER_APP.name(), Long.toString(poolBytes / s.chunkSize()));
      settings.putAll(extra);
      SpongeServerProcess p =
          cleanup.add(
              SpongeServerProcess.start(
                  name,
                  poolDir,
                  poolBytes,
                  s.chunkSize(),
                  log,
                  120,
                  List.of("-Xmx256m", "-XX:+UseSerialGC"),
                  settings));
      err.println("sponge-micro: started " + p);
      return p;
    }

    /**
     * The client stands for a task on node A: its chunks on node B name node A as the owner's node,
     * so B's garbage collector can ask A whether the task is alive.
     */
    private SpongeClient client() throws IOException {
      if (client == null) {
        SpongeServerAddress a = localServer().address();
        client =
            cleanup.add(
                new SpongeClient(
                    ClientIdentity.ofCurrentProcess(APPLICATION, NodeNames.of(a), null),
                    new StaticServerList(List.of()),
                    new ClientSettings(5_000, 60_000, s.chunkSize(), 2)));
      }
      return client;
    }
  }

  /** One medium's figures. */
  record Row(
      Medium medium,
      SpillRun.Result result,
      PhysicalLimits.Limit limit,
      double backgroundMbPerS,
      Boolean diskReadsDirect,
      long pinnedBytes) {

    double writeMbPerS() {
      return result.writes().mbPerSecond(result.bytes());
    }

    double readMbPerS() {
      return result.reads().mbPerSecond(result.bytes());
    }

    Double fractionOfLimit() {
      return limit == null ? null : writeMbPerS() / limit.mbPerS();
    }

    Map<String, Double> metrics() {
      Map<String, Double> m = new LinkedHashMap<>();
      ChunkLatencies w = result.writes();
      ChunkLatencies r = result.reads();
      m.put("write_ms_median", w.medianMillis());
      m.put("write_ms_p99", w.percentileMillis(0.99));
      m.put("write_ms_mean", w.meanMillis());
      m.put("write_mb_per_s", writeMbPerS());
      m.put("write_seconds", w.wallNanos() / 1e9);
      m.put("read_ms_median", r.medianMillis());
      m.put("read_ms_p99", r.percentileMillis(0.99));
      m.put("read_mb_per_s", readMbPerS());
      m.put("read_seconds", r.wallNanos() / 1e9);
      if (limit != null) {
        m.put("limit_mb_per_s", limit.mbPerS());
        m.put("write_fraction_of_limit", fractionOfLimit());
      }
      if (!Double.isNaN(backgroundMbPerS)) {
        m.put("background_mb_per_s", backgroundMbPerS);
      }
      if (diskReadsDirect != null) {
        m.put("disk_read_o_direct", diskReadsDirect ? 1.0 : 0.0);
      }
      if (pinnedBytes > 0) {
        m.put("pinned_bytes", (double) pinnedBytes);
      }
      return m;
    }
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  }
}
