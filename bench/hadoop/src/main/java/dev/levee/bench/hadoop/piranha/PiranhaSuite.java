package dev.levee.bench.hadoop.piranha;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.gen.Datasets;
import dev.levee.bench.gen.RecordGenerator;
import dev.levee.bench.report.ResultGroup;
import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.RunFigures;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.zk.ZooKeeperServers;
import dev.levee.piranha.examples.TopWords;
import dev.levee.piranha.runner.PiranhaRunner;
import dev.levee.piranha.runner.RunResult;
import dev.levee.piranha.runner.StageBreakdown;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code ./levee bench piranha}: the paper's Table-1 floor (an empty MapReduce job with a reduce,
 * an empty map-only job, an empty Piranha job with a shuffle and a reduce stage) and the top-k
 * words query (TopKWords, large intermediates) over bench-core's seeded {@code web} data, as
 * chained MapReduce and as Piranha in the chosen configurations; every arm on the same YARN mini
 * cluster (HDFS, several NodeManagers, one ZooKeeper) with the same poll and heartbeat settings,
 * arms interleaved round by round, each output checked equal to the chain's in the same round.
 */
public final class PiranhaSuite implements Suite {
  static final String CHAIN = "chained-mapreduce";

  @Override
  public String name() {
    return "piranha";
  }

  @Override
  public String summary() {
    return "Piranha: the job-launch floor and top-k words as chained MapReduce vs one Piranha job";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.optional("runs", "N", "rounds; every arm runs once per round", "5"),
        OptionSpec.optional("records", "N", "web records for the query", "400000"),
        OptionSpec.optional("node-managers", "N", "NodeManagers of the mini cluster", "2"),
        OptionSpec.optional(
            "configs",
            "LIST",
            "Piranha configurations: fused|kept - none|local|dfs",
            "fused-none,kept-none,fused-dfs,kept-dfs"),
        OptionSpec.optional(
            "figures", "DIR", "where the PNGs go (default: the run directory's figures/)", ""));
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    int runs = context.options().intIn("runs", 1, 100);
    long records = context.options().longAtLeast("records", 1);
    int nms = context.options().intIn("node-managers", 1, 8);
    List<String> configs = List.of(context.options().string("configs").split(","));
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
      RecordGenerator gen = Datasets.builtIn().configure("web", 42, Map.of());
      DatasetWriter.Result data =
          new DatasetWriter(conf)
              .write(
                  "web",
                  42,
                  gen,
                  Map.of(),
                  new DatasetWriter.Plan(web.toString(), records, 2, 2, true),
                  context.progress("generate", records, "records"));
      context.err().printf("web data: %d records, %d bytes%n", data.records(), data.bytes());

      Map<String, Object> floor = Map.of("query", "floor");
      Map<String, Object> topk =
          Map.of("query", "top-k-words", "records", records, "bytes", data.bytes());
      List<Measurement> measured = new ArrayList<>();
      for (int round = 1; round <= runs; round++) {
        Path r = new Path("/bench/piranha/round-" + round);
        // The floor, Table 1.
        measured.add(
            context.record(
                "empty-mapreduce",
                floor,
                Map.of("seconds", FloorJobs.emptyMapReduce(conf, tiny, new Path(r, "e-mr"))),
                round));
        measured.add(
            context.record(
                "empty-map-only",
                floor,
                Map.of("seconds", FloorJobs.emptyMapOnly(conf, tiny, new Path(r, "e-map"))),
                round));
        RunResult dummy =
            new PiranhaRunner(withConfig(conf, "fused-none", "/bench/floor"))
                .run(FloorJobs.emptyPiranha(tiny, new Path(r, "e-piranha")));
        measured.add(
            context.record("empty-piranha", floor, metrics(dummy, "empty-piranha"), round));

        // The query.
        Path chainOut = new Path(r, "chain");
        Map<String, Double> chainMetrics = new LinkedHashMap<>();
        long t0 = System.nanoTime();
        int k = 0;
        for (var job : TopWords.chain(conf, web, new Path(r, "chain-tmp"), chainOut, 2, 20)) {
          long j0 = System.nanoTime();
          if (!job.waitForCompletion(false)) {
            throw new IllegalStateException("stock job " + job.getJobName() + " failed");
          }
          chainMetrics.put(
              BreakdownChart.PREFIX
                  + "job "
                  + (++k)
                  + " ("
                  + job.getJobName().replace("top-words: ", "")
                  + ")",
              (System.nanoTime() - j0) / 1e9);
        }
        chainMetrics.put("seconds", (System.nanoTime() - t0) / 1e9);
        List<String> expected = PiranhaDemoRow.read(fs, chainOut);
        measured.add(context.record(CHAIN, topk, chainMetrics, round));
        for (String c : configs) {
          Path out = new Path(r, "piranha-" + c);
          Configuration pc = withConfig(conf, c, "/bench/topk");
          RunResult res =
              new PiranhaRunner(pc)
                  .run(TopWords.dagFromChain(pc, web, new Path(r, "unused-" + c), out, 2, 20));
          if (res.mode() != RunResult.Mode.PIRANHA || res.attempts() != 1) {
            throw new IllegalStateException(
                "piranha-" + c + " did not run as one Piranha attempt: " + res.fallbackReason());
          }
          List<String> got = PiranhaDemoRow.read(fs, out);
          if (!got.equals(expected)) {
            throw new IllegalStateException(
                "piranha-" + c + " output differs from chained MapReduce in round " + round);
          }
          measured.add(context.record("piranha-" + c, topk, metrics(res, "piranha-" + c), round));
        }
        fs.delete(r, true);
        context.err().printf("round %d of %d done%n", round, runs);
      }
      report(context, measured, configs);
    } finally {
      org.apache.hadoop.fs.FileUtil.fullyDelete(base.toFile());
    }
  }

  private static Configuration withConfig(Configuration conf, String config, String root) {
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
    context.out().println("| query | arm | runs | median s | min s | max s | vs chain |");
    context.out().println("|---|---|---|---|---|---|---|");
    double chain = Double.NaN;
    double mapOnly = Double.NaN;
    for (ResultGroup g : groups) {
      if (g.variant().equals(CHAIN)) {
        chain = g.summary("seconds").median();
      }
      if (g.variant().equals("empty-map-only")) {
        mapOnly = g.summary("seconds").median();
      }
    }
    for (ResultGroup g : groups) {
      Summary s = g.summary("seconds");
      String versus = "";
      if (g.variant().startsWith("piranha-")) {
        versus = String.format("%.0f%% faster", 100 * (1 - s.median() / chain));
      } else if (g.variant().equals("empty-piranha")) {
        versus = String.format("%+.0f%% vs map-only floor", 100 * (s.median() / mapOnly - 1));
      }
      context
          .out()
          .printf(
              "| %s | %s | %d | %.1f | %.1f | %.1f | %s |%n",
              g.paramsLabel(), g.variant(), s.n(), s.median(), s.min(), s.max(), versus);
    }
    java.nio.file.Path dir = RunFigures.dir(context, context.options().string("figures"));
    Files.createDirectories(dir);
    context.err().println("figure: " + SecondsChart.write(groups, dir));
    context.err().println("figure: " + BreakdownChart.write("top-k words", groups, dir));
    context.out().println();
    context.out().println("| arm | phase | median s |");
    context.out().println("|---|---|---|");
    for (ResultGroup g : groups) {
      for (String metric : g.values().keySet()) {
        if (metric.startsWith(BreakdownChart.PREFIX)) {
          context
              .out()
              .printf(
                  "| %s | %s | %.1f |%n",
                  g.variant(),
                  metric.substring(BreakdownChart.PREFIX.length()),
                  g.summary(metric).median());
        }
      }
    }
  }
}
