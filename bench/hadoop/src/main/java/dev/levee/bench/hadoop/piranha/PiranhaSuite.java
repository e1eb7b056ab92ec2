package dev.levee.bench.hadoop.piranha;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.Range;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.report.ResultGroup;
import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.zk.ZooKeeperServers;
import dev.levee.piranha.dag.MrChain;
import dev.levee.piranha.examples.web.PaperQueries;
import dev.levee.piranha.examples.web.PaperQuery;
import dev.levee.piranha.exec.TaskTimeline;
import dev.levee.piranha.plan.RunPlan;
import dev.levee.piranha.runner.PiranhaRunner;
import dev.levee.piranha.runner.RunResult;
import dev.levee.piranha.runner.StageBreakdown;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobID;
import picocli.CommandLine.Option;

/**
 * {@code ./levee bench piranha}: the paper's Table-1 floor (an empty MapReduce job with a reduce,
 * an empty map-only job, an empty Piranha job with a shuffle and a reduce stage) and its three
 * queries (TopKDomains, TopKWords, NonSpamTopKAnchor) over bench-core's seeded {@code web} data,
 * each as chained MapReduce, as Piranha in the chosen configurations, and as one Pig Latin script
 * on stock Pig and on Piranha's Pig path; every arm on the same YARN mini cluster (HDFS, several
 * NodeManagers, one ZooKeeper) with the same poll and heartbeat settings, arms interleaved round by
 * round, each output checked equal to the chain's in the same round.
 *
 * <p>The floor adds two arms the paper did not need: an empty map-only job with as many tasks as
 * the dummy (on a two-core machine, starting several task JVMs at once costs more than one), and
 * the dummy with its plugin jar already on the cluster, as the stock floor jobs' classes are. Each
 * floor arm also records when it passed each point of a job's life ({@link FloorTimeline}).
 */
public final class PiranhaSuite implements Suite {
  static final String CHAIN = "chained-mapreduce";
  static final String FLOOR = "floor";
  static final String STOCK_PIG = "stock-pig";
  static final String PIRANHA_PIG = "piranha-pig";
  static final String EMPTY_MR = "empty-mapreduce";
  static final String EMPTY_MAP_ONLY = "empty-map-only";
  static final String EMPTY_PIRANHA = "empty-piranha";
  static final String EMPTY_PIRANHA_INSTALLED = "empty-piranha-site-installed";
  static final String DUMMY_CONFIG = "fused-none";

  @Override
  public String name() {
    return "piranha";
  }

  @Override
  public String summary() {
    return "Piranha: the job-launch floor and the paper's three queries as chained MapReduce, stock"
        + " Pig and Piranha";
  }

  /** The suite's options. */
  static final class Options {
    @Option(
        names = "--runs",
        paramLabel = "N",
        description = "rounds; every arm runs once per round")
    @Range(min = 1, max = 100)
    int runs = 5;

    @Option(
        names = "--workloads",
        paramLabel = "LIST",
        split = ",",
        description = "which workloads: floor, or the paper's queries (${COMPLETION-CANDIDATES})",
        completionCandidates = QueryNames.class)
    List<String> workloads = List.of(FLOOR, "top-k-words");

    @Option(names = "--records", paramLabel = "N", description = "web records the queries read")
    @Range(min = 1)
    long records = 400_000;

    @Option(
        names = "--reducers",
        paramLabel = "N",
        description = "tasks of every shuffle stage of a query")
    @Range(min = 1, max = 16)
    int reducers = 2;

    @Option(
        names = "--node-managers",
        paramLabel = "N",
        description = "NodeManagers of the mini cluster")
    @Range(min = 1, max = 8)
    int nodeManagers = 2;

    @Option(
        names = "--configs",
        paramLabel = "LIST",
        split = ",",
        description = "Piranha configurations: fused|kept - none|local|dfs")
    List<String> configs = List.of("fused-none", "kept-none", "fused-dfs", "kept-dfs");
  }

  /** The paper's query names, for the help. */
  static final class QueryNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return PaperQueries.NAMES.iterator();
    }
  }

  @Override
  public Object newOptions() {
    return new Options();
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    Options o = context.options(Options.class);
    int runs = o.runs;
    long records = o.records;
    int nms = o.nodeManagers;
    List<String> configs = o.configs;
    List<String> workloads = o.workloads;
    int reducers = o.reducers;
    List<PaperQuery> queries = new ArrayList<>();
    for (String w : workloads) {
      if (PaperQueries.NAMES.contains(w)) {
        queries.add(PaperQueries.of(w, reducers));
      } else if (!w.equals(FLOOR)) {
        throw new IllegalArgumentException(
            "--workloads: '" + w + "' is not one of " + FLOOR + ", " + PaperQueries.NAMES);
      }
    }
    // A misspelt configuration fails here, not after the cluster, the data and a round of arms.
    for (String c : configs) {
      withConfig(new Configuration(false), c, "/check");
    }
    java.nio.file.Path base = java.nio.file.Path.of(".levee", "bench-piranha").toAbsolutePath();
    Files.createDirectories(base);
    try (TestingServer zk = ZooKeeperServers.standalone(base.resolve("zookeeper"));
        MiniMapReduceCluster cluster =
            MiniMapReduceCluster.builder()
                .nodeManagers(nms)
                .nodeManagerMemoryMb(4096)
                .baseDir(base)
                .start()
                .closeOnShutdown()) {
      Configuration conf = cluster.clientConf();
      conf.set("levee.piranha.zookeeper.quorum", zk.getConnectString());
      conf.set("levee.piranha.checkpoint.dfs-dir", "/bench/piranha/checkpoint");
      // The previous arm's ApplicationMaster lingers a few seconds; the check would only fall back.
      conf.setBoolean("levee.piranha.capacity.check", false);
      FileSystem fs = cluster.fileSystem();

      Path tiny = new Path("/bench/piranha/tiny");
      try (var out = fs.create(new Path(tiny, "one-line.txt"))) {
        out.write("one line\n".getBytes(StandardCharsets.UTF_8));
      }
      Path web = new Path("/bench/piranha/web");
      long webBytes = 0;
      if (!queries.isEmpty()) {
        webBytes = writeWeb(context, conf, web, records);
      }
      // The honest floor for the dummy: as many map tasks as it has tasks, one one-line file each.
      int dummyTasks = dummyTaskCount(conf, tiny);
      Path tinyN = new Path("/bench/piranha/tiny-" + dummyTasks);
      for (int i = 0; i < dummyTasks; i++) {
        try (var out = fs.create(new Path(tinyN, "one-line-" + i + ".txt"))) {
          out.write("one line\n".getBytes(StandardCharsets.UTF_8));
        }
      }
      String mapOnlyN = "empty-map-only-" + dummyTasks + "-tasks";
      // The mini cluster's containers inherit this JVM's classpath, as a site-wide install of the
      // plugin (mapreduce.application.classpath) would give them: the stock floor jobs ship no jar
      // at all. The runner ships the 4.3 MB plugin jar as the job jar unless the job names its own,
      // so this arm names a near-empty one, splitting the shipping cost from the rest.
      Configuration installed = new Configuration(conf);
      installed.set("mapreduce.job.jar", emptyJar(base.resolve("empty-job.jar")).toString());

      Map<String, Object> floor = Map.of("query", "floor");
      List<Measurement> measured = new ArrayList<>();
      for (int round = 1; round <= runs; round++) {
        Path r = new Path("/bench/piranha/round-" + round);
        if (workloads.contains(FLOOR)) {
          // Table 1. An arm that follows another shares the cluster with that one's lingering
          // ApplicationMaster for a moment, so the order rotates round by round.
          List<String> arms =
              List.of(EMPTY_MR, EMPTY_MAP_ONLY, mapOnlyN, EMPTY_PIRANHA, EMPTY_PIRANHA_INSTALLED);
          for (int i = 0; i < arms.size(); i++) {
            String arm = arms.get((i + round - 1) % arms.size());
            Path out = new Path(r, arm);
            Map<String, Double> m;
            if (arm.equals(EMPTY_MR)) {
              m = floorMetrics(conf, cluster, FloorJobs.emptyMapReduce(conf, tiny, out));
            } else if (arm.equals(EMPTY_MAP_ONLY)) {
              m = floorMetrics(conf, cluster, FloorJobs.emptyMapOnly(conf, tiny, out));
            } else if (arm.equals(mapOnlyN)) {
              m = floorMetrics(conf, cluster, FloorJobs.emptyMapOnly(conf, tinyN, out));
            } else if (arm.equals(EMPTY_PIRANHA)) {
              m = dummyMetrics(conf, cluster, tiny, out);
            } else {
              m = dummyMetrics(installed, cluster, tiny, out);
            }
            measured.add(context.record(arm, floor, m, round));
          }
        }

        for (PaperQuery query : queries) {
          Map<String, Object> params =
              Map.of("query", query.name(), "records", records, "bytes", webBytes);
          measured.addAll(
              queryRound(
                  context,
                  cluster,
                  conf,
                  zk.getConnectString(),
                  query,
                  web,
                  r,
                  params,
                  configs,
                  round));
        }
        fs.delete(r, true);
        context.err().printf("round %d of %d done%n", round, runs);
      }
      report(context, measured, configs);
    } finally {
      org.apache.hadoop.fs.FileUtil.fullyDelete(base.toFile());
    }
  }

  /**
   * One query's arms in one round, in an order that rotates round by round: the stock chain, each
   * Piranha configuration on the same chain (MrChain: nothing written between the jobs), and the
   * query's Pig Latin script on stock Pig and on Piranha's Pig path. Every output is checked equal
   * to the chain's once the round is over.
   */
  private static List<Measurement> queryRound(
      SuiteContext context,
      MiniMapReduceCluster cluster,
      Configuration conf,
      String zkQuorum,
      PaperQuery query,
      Path web,
      Path r,
      Map<String, Object> params,
      List<String> configs,
      int round)
      throws Exception {
    FileSystem fs = cluster.fileSystem();
    Path q = new Path(r, query.name());
    List<String> arms = new ArrayList<>();
    arms.add(CHAIN);
    configs.forEach(c -> arms.add("piranha-" + c));
    arms.add(STOCK_PIG);
    arms.add(PIRANHA_PIG);
    Map<String, List<String>> outputs = new LinkedHashMap<>();
    Map<String, Map<String, Double>> measured = new LinkedHashMap<>();
    for (int i = 0; i < arms.size(); i++) {
      String arm = arms.get((i + round - 1) % arms.size());
      Path out = new Path(q, arm);
      Map<String, Double> m;
      if (arm.equals(CHAIN)) {
        m = chainMetrics(query.chain(conf, web, new Path(q, "chain-tmp"), out));
        outputs.put(arm, PiranhaDemoRow.read(fs, out));
      } else if (arm.equals(STOCK_PIG) || arm.equals(PIRANHA_PIG)) {
        Properties polling = PigScripts.benchPolling();
        double seconds =
            PigScripts.run(
                arm.equals(STOCK_PIG)
                    ? PigScripts.stock(cluster, polling)
                    : PigScripts.piranha(cluster, zkQuorum, polling),
                query.pigScript(),
                web,
                out);
        m = new LinkedHashMap<>();
        m.put("seconds", seconds);
        if (arm.equals(PIRANHA_PIG)) {
          // 0 when Piranha's Pig path handed the script to stock Pig (it logs why).
          m.put("ran-on-piranha", PigScripts.ranOnPiranha(fs, out) ? 1.0 : 0.0);
        }
        outputs.put(arm, PaperQuery.pigLinesAsChain(PiranhaDemoRow.read(fs, out)));
      } else {
        String config = arm.substring("piranha-".length());
        Configuration pc = withConfig(conf, config, "/bench/" + query.name());
        RunResult res =
            new PiranhaRunner(pc)
                .run(
                    MrChain.of(
                        query.name(),
                        pc,
                        query.chain(pc, web, new Path(q, "unused-" + config), out)));
        if (res.mode() != RunResult.Mode.PIRANHA || res.attempts() != 1) {
          throw new IllegalStateException(
              arm + " did not run as one Piranha attempt: " + res.fallbackReason());
        }
        m = metrics(res, arm);
        outputs.put(arm, PiranhaDemoRow.read(fs, out));
      }
      measured.put(arm, m);
    }
    List<String> expected = outputs.get(CHAIN);
    if (expected.isEmpty()) {
      throw new IllegalStateException(
          query.name() + ": the chain wrote no top k in round " + round);
    }
    List<Measurement> recorded = new ArrayList<>();
    for (String arm : arms) {
      if (!outputs.get(arm).equals(expected)) {
        throw new IllegalStateException(
            query.name()
                + ": "
                + arm
                + " wrote "
                + outputs.get(arm)
                + ", chained MapReduce "
                + expected
                + " in round "
                + round);
      }
      recorded.add(context.record(arm, params, measured.get(arm), round));
    }
    return recorded;
  }

  /** Runs the stock jobs one after the other; each job's seconds are a phase of the breakdown. */
  private static Map<String, Double> chainMetrics(List<org.apache.hadoop.mapreduce.Job> jobs)
      throws Exception {
    Map<String, Double> m = new LinkedHashMap<>();
    long t0 = System.nanoTime();
    int k = 0;
    for (var job : jobs) {
      long j0 = System.nanoTime();
      if (!job.waitForCompletion(false)) {
        throw new IllegalStateException("stock job " + job.getJobName() + " failed");
      }
      String name = job.getJobName();
      m.put(
          BreakdownChart.PREFIX
              + "job "
              + (++k)
              + " ("
              + name.substring(name.indexOf(": ") + 2)
              + ")",
          (System.nanoTime() - j0) / 1e9);
    }
    m.put("seconds", (System.nanoTime() - t0) / 1e9);
    return m;
  }

  private static long writeWeb(SuiteContext context, Configuration conf, Path web, long records)
      throws Exception {
    DatasetWriter.Result data =
        new DatasetWriter(conf)
            .writeBuiltIn(
                "web",
                42,
                Map.of(),
                new DatasetWriter.Plan(web.toString(), records, 2, 2, true),
                context.progress("generate", records, "records"));
    context.err().printf("web data: %d records, %d bytes%n", data.records(), data.bytes());

    return data.bytes();
  }

  private static java.nio.file.Path emptyJar(java.nio.file.Path jar) throws java.io.IOException {
    try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new java.util.zip.ZipEntry("META-INF/levee-bench-empty-job"));
      out.closeEntry();
    }
    return jar;
  }

  /** Tasks of the dummy as the bench runs it (fused, one input file). */
  private static int dummyTaskCount(Configuration conf, Path tiny) {
    Configuration c = withConfig(conf, DUMMY_CONFIG, "/bench/floor");
    RunPlan plan =
        RunPlan.resolve(FloorJobs.emptyPiranha(tiny, new Path("/unused")), Map.of("scan", 1));
    return plan.withoutRedundantStages(c).taskCount();
  }

  private static Map<String, Double> floorMetrics(
      Configuration conf, MiniMapReduceCluster cluster, FloorJobs.Run run) throws Exception {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("seconds", run.seconds());
    m.putAll(
        FloorTimeline.of(
            conf, run.id(), run.startMillis(), run.endMillis(), cluster.workDir(), null));
    return m;
  }

  /**
   * The dummy's wall time as its caller sees it, clean-up after the job included; its timeline from
   * the same sources as the stock arms', the task marks from its own task timelines.
   */
  private static Map<String, Double> dummyMetrics(
      Configuration conf, MiniMapReduceCluster cluster, Path in, Path out) throws Exception {
    long t0 = System.currentTimeMillis();
    RunResult res =
        new PiranhaRunner(withConfig(conf, DUMMY_CONFIG, "/bench/floor"))
            .run(FloorJobs.emptyPiranha(in, out));
    long t1 = System.currentTimeMillis();
    if (res.mode() != RunResult.Mode.PIRANHA || res.attempts() != 1) {
      throw new IllegalStateException(
          "the empty Piranha job did not run as one Piranha attempt: " + res.fallbackReason());
    }
    Map<String, Double> m = metrics(res, EMPTY_PIRANHA);
    m.put("seconds", (t1 - t0) / 1000.0);
    m.put("runner-seconds", res.seconds());
    long start = 0;
    long registered = 0;
    long done = 0;
    for (TaskTimeline t : res.timelines().values()) {
      start = Math.max(start, orZero(t.get(TaskTimeline.START)));
      registered = Math.max(registered, orZero(t.get(TaskTimeline.REGISTERED)));
      done = Math.max(done, orZero(t.get(TaskTimeline.DONE)));
    }
    Map<String, Double> at =
        FloorTimeline.of(
            conf,
            JobID.forName(res.jobIds().get(0)),
            t0,
            t1,
            cluster.workDir(),
            new long[] {start, done});
    at.put(FloorTimeline.PREFIX + "tasks-registered", (registered - t0) / 1000.0);
    at.put(FloorTimeline.PREFIX + "runner-done", (res.finishedMillis() - t0) / 1000.0);
    m.putAll(at);
    return m;
  }

  private static long orZero(Long v) {
    return v == null ? 0 : v;
  }

  /** {@code conf} in one of the paper's configurations, e.g. fused-none or kept-dfs. */
  static Configuration withConfig(Configuration conf, String config, String root) {
    Configuration c = new Configuration(conf);
    String[] p = config.split("-");
    if (p.length != 2
        || !(p[0].equals("fused") || p[0].equals("kept"))
        || !List.of("none", "local", "dfs").contains(p[1])) {
      throw new IllegalArgumentException(
          "--configs: '" + config + "' is not fused|kept-none|local|dfs (e.g. fused-none)");
    }
    c.setBoolean("levee.piranha.plan.eliminate-redundant-stages", p[0].equals("fused"));
    c.set("levee.piranha.checkpoint", p[1]);
    c.set("levee.piranha.zookeeper.root", root);
    return c;
  }

  private static Map<String, Double> metrics(RunResult r, String arm) {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("seconds", r.seconds());
    StageBreakdown b = r.breakdown();
    if (b != null) {
      for (StageBreakdown.Phase p : b.phases()) {
        m.put(BreakdownChart.PREFIX + p.stage(), p.seconds());
      }
      m.put(BreakdownChart.PREFIX + "other", b.otherSeconds());
    }
    return m;
  }

  private static void report(SuiteContext context, List<Measurement> measured, List<String> configs)
      throws java.io.IOException {
    List<ResultGroup> groups = ResultGroup.group(measured);
    context
        .out()
        .println("| query | arm | runs | median s | min s | max s | vs chain | vs stock Pig |");
    context.out().println("|---|---|---|---|---|---|---|---|");
    Map<String, Double> chain = new LinkedHashMap<>();
    Map<String, Double> stockPig = new LinkedHashMap<>();
    double mapOnly = Double.NaN;
    double mapOnlyN = Double.NaN;
    for (ResultGroup g : groups) {
      if (g.variant().equals(CHAIN)) {
        chain.put(query(g), g.summary("seconds").median());
      }
      if (g.variant().equals(STOCK_PIG)) {
        stockPig.put(query(g), g.summary("seconds").median());
      }
      if (g.variant().equals(EMPTY_MAP_ONLY)) {
        mapOnly = g.summary("seconds").median();
      }
      if (g.variant().startsWith(EMPTY_MAP_ONLY + "-")) {
        mapOnlyN = g.summary("seconds").median();
      }
    }
    for (ResultGroup g : groups) {
      Summary s = g.summary("seconds");
      String versus = "";
      String versusPig = "";
      if (chain.containsKey(query(g)) && !g.variant().equals(CHAIN)) {
        versus = faster(s.median(), chain.get(query(g)));
        if (g.variant().startsWith("piranha-")) {
          versusPig = faster(s.median(), stockPig.getOrDefault(query(g), Double.NaN));
        }
        Summary ran = g.summary("ran-on-piranha");
        if (ran != null && ran.min() < 1) {
          versusPig += " (ran on stock Pig in " + Math.round((1 - ran.median()) * s.n()) + " runs)";
        }
      } else if (g.variant().startsWith(EMPTY_PIRANHA)) {
        versus =
            String.format(
                "%+.0f%% vs the map-only floor, %+.0f%% vs map-only with as many tasks",
                100 * (s.median() / mapOnly - 1), 100 * (s.median() / mapOnlyN - 1));
      }
      context
          .out()
          .printf(
              "| %s | %s | %d | %.1f | %.1f | %.1f | %s | %s |%n",
              g.paramsLabel(), g.variant(), s.n(), s.median(), s.min(), s.max(), versus, versusPig);
    }
    // The seconds chart and the per-query breakdowns are report figures (PiranhaFigures), drawn
    // from the result lines.
    context.err().println("figures: ./levee report --run <this run's id> draws them");
    timelineTable(context, groups);
    context.out().println();
    context.out().println("| query | arm | phase | median s |");
    context.out().println("|---|---|---|---|");
    for (ResultGroup g : groups) {
      for (String metric : g.values().keySet()) {
        if (metric.startsWith(BreakdownChart.PREFIX)) {
          context
              .out()
              .printf(
                  "| %s | %s | %s | %.1f |%n",
                  query(g),
                  g.variant(),
                  metric.substring(BreakdownChart.PREFIX.length()),
                  g.summary(metric).median());
        }
      }
    }
  }

  /** The group's query parameter ("floor" for the floor's arms). */
  private static String query(ResultGroup g) {
    for (String p : g.paramsLabel().split(", ")) {
      if (p.startsWith("query=")) {
        return p.substring("query=".length());
      }
    }
    return "";
  }

  private static String faster(double seconds, double than) {
    if (Double.isNaN(than)) {
      return "";
    }
    double cut = 100 * (1 - seconds / than);
    return cut >= 0 ? String.format("%.0f%% faster", cut) : String.format("%.0f%% slower", -cut);
  }

  /**
   * The floor arms' instants (seconds after the client began, medians over the rounds), one column
   * per arm, so consecutive rows show where each arm's time goes.
   */
  private static void timelineTable(SuiteContext context, List<ResultGroup> groups) {
    List<ResultGroup> arms =
        groups.stream()
            .filter(
                g -> g.values().keySet().stream().anyMatch(k -> k.startsWith(FloorTimeline.PREFIX)))
            .toList();
    if (arms.isEmpty()) {
      return;
    }
    List<String> instants = new ArrayList<>();
    for (ResultGroup g : arms) {
      for (String k : g.values().keySet()) {
        if (k.startsWith(FloorTimeline.PREFIX) && !instants.contains(k)) {
          instants.add(k);
        }
      }
    }
    instants.sort(
        java.util.Comparator.comparingInt(
            k -> FloorTimeline.ORDER.indexOf(k.substring(FloorTimeline.PREFIX.length()))));
    context.out().println();
    StringBuilder head = new StringBuilder("| instant (s after the client began) |");
    StringBuilder rule = new StringBuilder("|---|");
    for (ResultGroup g : arms) {
      head.append(' ').append(g.variant()).append(" |");
      rule.append("---:|");
    }
    context.out().println(head);
    context.out().println(rule);
    for (String k : instants) {
      StringBuilder row =
          new StringBuilder("| " + k.substring(FloorTimeline.PREFIX.length()) + " |");
      for (ResultGroup g : arms) {
        Summary s = g.summary(k);
        row.append(s == null ? " |" : String.format(" %.2f |", s.median()));
      }
      context.out().println(row);
    }
  }
}
