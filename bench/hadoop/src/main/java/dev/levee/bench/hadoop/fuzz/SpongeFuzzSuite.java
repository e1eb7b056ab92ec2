package dev.levee.bench.hadoop.fuzz;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.Range;
import dev.levee.bench.hadoop.sponge.SpongeServerProcess;
import dev.levee.bench.results.RunFigures;
import dev.levee.sponge.config.SpongeConf;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code sponge-fuzz}: the long fuzz and load run of issue 13. A sponge server runs as its own JVM
 * (the standalone daemon with the README's command line: no {@code -Xmx}, default limits) on a real
 * pool, watched from outside ({@link ServerSampler}: direct and mapped buffers over JMX, RSS,
 * threads, descriptors), while a {@link Canary} stores, reads back and checks chunks throughout.
 * Phases: fuzz ({@link FuzzPhase}, seeded hostile frames of every op), churn (short connections by
 * the thousand from many addresses), crowd (connections opened together and held, beside trickling
 * slow peers), then a quiet tail in which the server must serve the canary again. Every line
 * records what the issue asks for: inputs tried, crashes, hangs, corrupt reads, peak direct memory
 * against its configured bound, clients served and refused.
 */
public final class SpongeFuzzSuite implements Suite {
  static final String NAME = "sponge-fuzz";
  private static final long SAMPLE_MILLIS = 250;
  private static final int QUIET_SECONDS = 10;

  /**
   * The fuzz's well-formed ALLOCATE_WRITEs are real grants to owners on a node that is no sponge
   * server, so they fill the pool until the collector frees them: a short grace (and GC period)
   * lets the run go on past the first full pool, and exercises the collector under load too.
   */
  private static final Map<String, String> SERVER_SETTINGS =
      Map.of(
          SpongeConf.GC_PERIOD_MS.name(), "1000",
          SpongeConf.GC_PEER_GRACE_MS.name(), "2000");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String summary() {
    return "SpongeFiles server under fuzz and load in its own JVM: 10^5 hostile frames, thousands"
        + " of connections; crashes, hangs, peak direct memory, clients refused";
  }

  /** The suite's options. */
  static final class Options {
    @Option(names = "--inputs", paramLabel = "N", description = "hostile frames in the fuzz phase")
    @Range(min = 1000)
    long inputs = 100_000;

    @Option(
        names = "--churn",
        paramLabel = "N",
        description = "short connections in the churn phase")
    @Range(min = 0, max = 1_000_000)
    int churn = 20_000;

    @Option(
        names = "--crowd",
        paramLabel = "N",
        description = "connections opened together and held")
    @Range(min = 0, max = 15_000)
    int crowd = 4000;

    @Option(
        names = "--slow-peers",
        paramLabel = "N",
        description = "peers trickling a byte every 200 ms")
    @Range(min = 0, max = 1000)
    int slowPeers = 200;

    @Option(names = "--pool-mb", paramLabel = "MB", description = "the server's pool")
    @Range(min = 4, max = 1 << 16)
    int poolMb = 64;

    @Option(
        names = "--max-connections",
        paramLabel = "N",
        description = "levee.sponge.server.max-connections of the server")
    @Range(min = 1, max = 10_000)
    int maxConnections = SpongeConf.MAX_CONNECTIONS.defaultValue();

    @Option(
        names = "--max-connections-per-peer",
        paramLabel = "N",
        description = "levee.sponge.server.max-connections-per-peer of the server")
    @Range(min = 1, max = 10_000)
    int maxConnectionsPerPeer = SpongeConf.MAX_CONNECTIONS_PER_PEER.defaultValue();

    @Option(names = "--seed", paramLabel = "N", description = "the fuzz seed")
    @Range(min = 0)
    long seed = 20_261_124;

    @Option(
        names = "--auth",
        paramLabel = "true|false",
        arity = "1",
        description =
            "levee.sponge.server.auth.required of the server (the default install: true, with a"
                + " cluster secret; the canary proves its application's derived secret)")
    boolean auth = true;

    @Option(
        names = "--figures",
        paramLabel = "DIR",
        description = "where the figure goes (default: the run's own directory)")
    String figures = "";
  }

  @Override
  public Object newOptions() {
    return new Options();
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    Options o = context.options(Options.class);
    long inputs = o.inputs;
    int churn = o.churn;
    int crowd = o.crowd;
    int slow = o.slowPeers;
    int poolMb = o.poolMb;
    long seed = o.seed;
    int maxConnections = o.maxConnections;
    int perPeer = o.maxConnectionsPerPeer;
    boolean auth = o.auth;
    Map<String, String> settings = new LinkedHashMap<>(SERVER_SETTINGS);
    settings.put(SpongeConf.MAX_CONNECTIONS.name(), Integer.toString(maxConnections));
    settings.put(SpongeConf.MAX_CONNECTIONS_PER_PEER.name(), Integer.toString(perPeer));
    int chunk = SpongeConf.CHUNK_SIZE.defaultValue();
    int chunks = (int) ((long) poolMb * (1 << 20) / chunk);
    PrintStream err = context.err();

    // On tmpfs, as a NodeManager's pool is (a sticky /dev/shm passes the pool's trust checks).
    Path pool = Path.of("/dev/shm", "levee-sponge-fuzz-" + ProcessHandle.current().pid());
    Path log = context.store().dir().resolve("sponge-fuzz-server.log");
    Files.createDirectories(log.getParent());
    byte[] clusterSecret = null;
    Path secretFile = log.resolveSibling("sponge-fuzz-cluster.secret");
    if (auth) {
      clusterSecret = new byte[32];
      new java.security.SecureRandom().nextBytes(clusterSecret);
      Files.write(secretFile, clusterSecret);
      Files.setPosixFilePermissions(
          secretFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      settings.put(SpongeConf.AUTH_REQUIRED.name(), "true");
      settings.put(SpongeConf.AUTH_SECRET_FILE.name(), secretFile.toString());
    }
    int jmxPort = freePort();
    List<String> flags =
        List.of(
            "-Dcom.sun.management.jmxremote.port=" + jmxPort,
            "-Dcom.sun.management.jmxremote.rmi.port=" + jmxPort,
            "-Dcom.sun.management.jmxremote.host=127.0.0.1",
            "-Djava.rmi.server.hostname=127.0.0.1",
            "-Dcom.sun.management.jmxremote.authenticate=false",
            "-Dcom.sun.management.jmxremote.ssl=false");
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("pool_mb", poolMb);
    params.put("chunk_bytes", chunk);
    params.put("max_connections", maxConnections);
    params.put("max_connections_per_peer", perPeer);
    params.put("transfer_buffers", SpongeConf.TRANSFER_BUFFERS.defaultValue());
    params.put("frame_timeout_ms", SpongeConf.FRAME_TIMEOUT_MS.defaultValue());
    params.put("socket_timeout_ms", SpongeConf.SOCKET_TIMEOUT_MS.defaultValue());
    params.put("seed", seed);
    params.put("auth_required", auth);
    params.put("gc_period_ms", 1000);
    params.put("gc_peer_unreachable_grace_ms", 2000);
    params.put("server_jvm", "standalone daemon, no -Xmx, JMX on loopback");
    long directBound = (long) SpongeConf.TRANSFER_BUFFERS.defaultValue() * chunk;

    long started = System.nanoTime();
    SpongeServerProcess server =
        SpongeServerProcess.start(
            "fuzz", pool, (long) poolMb << 20, chunk, log, 60, flags, settings);
    boolean crashed = false;
    Map<String, Double> fuzzLine = new LinkedHashMap<>();
    Map<String, Double> churnLine = new LinkedHashMap<>();
    Map<String, Double> crowdLine = new LinkedHashMap<>();
    List<double[]> phaseStarts = new ArrayList<>();
    List<String> phaseNames = new ArrayList<>();
    ServerSampler sampler = null;
    Canary canary = null;
    try {
      sampler = new ServerSampler(server.pid(), jmxPort, SAMPLE_MILLIS);
      canary = new Canary(server.address(), chunk, sampler, clusterSecret);
      canary.start();
      double t0 = seconds(started);

      phase(sampler, "fuzz", started, phaseStarts, phaseNames, err);
      FuzzPhase fuzz = new FuzzPhase();
      fuzz.run(server.address(), inputs, seed, chunk, chunks);
      fuzzLine.put("inputs", (double) fuzz.inputs.get());
      fuzzLine.put("connections", (double) fuzz.connections.get());
      fuzzLine.put("replies", (double) fuzz.replies.get());
      fuzzLine.put("hangs", (double) fuzz.hangs.get());
      fuzzLine.put("connect_failures", (double) fuzz.connectFailures.get());
      err.printf(
          Locale.ROOT,
          "sponge-fuzz: %,d inputs on %,d connections: %,d replies, %d hangs%n",
          fuzz.inputs.get(),
          fuzz.connections.get(),
          fuzz.replies.get(),
          fuzz.hangs.get());

      phase(sampler, "churn", started, phaseStarts, phaseNames, err);
      outcomes(churnLine, LoadPhase.churn(server.address(), churn, 32), err, "churn");

      phase(sampler, "crowd", started, phaseStarts, phaseNames, err);
      outcomes(crowdLine, LoadPhase.crowd(server.address(), crowd, slow), err, "crowd");
      crowdLine.put("slow_peers", (double) slow);

      phase(sampler, "quiet", started, phaseStarts, phaseNames, err);
      long servedBefore = canary.served.get();
      Thread.sleep(QUIET_SECONDS * 1000L);
      boolean stillServing = canary.served.get() > servedBefore;
      canary.close();

      crashed = !server.alive();
      Map<String, Double> serverLine = new LinkedHashMap<>();
      serverLine.put("crashed", crashed ? 1.0 : 0.0);
      serverLine.put("still_serving", stillServing ? 1.0 : 0.0);
      serverLine.put("peak_direct_bytes", (double) sampler.peak(ServerSampler.Sample::directBytes));
      serverLine.put("direct_bound_bytes", (double) directBound);
      serverLine.put("peak_mapped_bytes", (double) sampler.peak(ServerSampler.Sample::mappedBytes));
      serverLine.put("peak_rss_bytes", (double) sampler.peak(ServerSampler.Sample::rssBytes));
      serverLine.put("peak_threads", (double) sampler.peak(s -> s.threads()));
      serverLine.put("peak_fds", (double) sampler.peak(s -> s.fds()));
      serverLine.put("warn_lines", (double) warnLines(log));
      serverLine.put("canary_served", (double) canary.served.get());
      serverLine.put("canary_failed", (double) canary.failed.get());
      serverLine.put("canary_corrupt", (double) canary.corrupt.get());
      serverLine.put("canary_no_room", (double) canary.noRoom.get());
      serverLine.put("seconds", seconds(started) - t0);
      for (String phase : phaseNames) {
        List<Double> trips = canary.tripsIn(phase);
        Map<String, Double> line =
            switch (phase) {
              case "fuzz" -> fuzzLine;
              case "churn" -> churnLine;
              case "crowd" -> crowdLine;
              default -> serverLine;
            };
        line.put("canary_round_trips", (double) trips.size());
        line.put("canary_p50_ms", percentile(trips, 0.50));
        line.put("canary_p99_ms", percentile(trips, 0.99));
      }
      context.record("fuzz", params, fuzzLine, 0);
      context.record("churn", params, churnLine, 0);
      context.record("crowd", params, crowdLine, 0);
      context.record("server", params, serverLine, 0);
      err.printf(
          Locale.ROOT,
          "sponge-fuzz: server crashed %s, still serving %s; peak direct %,d B (bound %,d B),"
              + " peak RSS %,d B, %d WARN lines; canary %,d served, %,d failed, %,d no room,"
              + " %d corrupt%n",
          crashed,
          stillServing,
          sampler.peak(ServerSampler.Sample::directBytes),
          directBound,
          sampler.peak(ServerSampler.Sample::rssBytes),
          serverLine.get("warn_lines").longValue(),
          canary.served.get(),
          canary.failed.get(),
          canary.noRoom.get(),
          canary.corrupt.get());

      Path figures = RunFigures.dir(context, o.figures);
      FuzzFigure.write(
          figures,
          sampler.samples(),
          phaseStarts,
          phaseNames,
          directBound,
          List.of(fuzzLine, churnLine, crowdLine),
          String.format(
              Locale.ROOT,
              "max-connections %d, %d per peer, %d slow peers, authentication %s",
              maxConnections,
              perPeer,
              slow,
              auth ? "required (the canary proves its application)" : "off"),
          maxConnections == SpongeConf.MAX_CONNECTIONS.defaultValue()
                  && perPeer == SpongeConf.MAX_CONNECTIONS_PER_PEER.defaultValue()
              ? ""
              : "-mc" + maxConnections + "-pp" + perPeer,
          context.gitRevision());
      err.println("sponge-fuzz: figures in " + figures);
    } finally {
      if (canary != null) {
        canary.close();
      }
      if (sampler != null) {
        sampler.close();
      }
      server.close();
      deleteTree(pool);
      Files.deleteIfExists(secretFile);
    }
  }

  private static void phase(
      ServerSampler sampler,
      String name,
      long started,
      List<double[]> starts,
      List<String> names,
      PrintStream err) {
    sampler.phase(name);
    starts.add(new double[] {seconds(started)});
    names.add(name);
    err.printf(Locale.ROOT, "sponge-fuzz: phase %s at %.1f s%n", name, seconds(started));
  }

  private static void outcomes(
      Map<String, Double> line, LoadPhase.Outcomes o, PrintStream err, String name) {
    line.put("connections", (double) o.tried.get());
    line.put("served", (double) o.served.get());
    line.put("refused", (double) o.refused.get());
    line.put("unanswered", (double) o.unanswered.get());
    err.printf(
        Locale.ROOT,
        "sponge-fuzz: %s: %,d connections, %,d served, %,d refused, %,d unanswered%n",
        name,
        o.tried.get(),
        o.served.get(),
        o.refused.get(),
        o.unanswered.get());
  }

  static double percentile(List<Double> values, double p) {
    if (values.isEmpty()) {
      return Double.NaN;
    }
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int i = (int) Math.ceil(p * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
  }

  static long warnLines(Path log) throws IOException {
    if (!Files.exists(log)) {
      return 0;
    }
    try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
      return lines.filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")).count();
    }
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException ignored) {
                  // best effort: the pool is under .levee, git-ignored
                }
              });
    } catch (IOException ignored) {
      // nothing to delete
    }
  }
}
