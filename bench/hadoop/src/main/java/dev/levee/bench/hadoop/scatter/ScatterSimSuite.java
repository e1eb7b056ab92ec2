package dev.levee.bench.hadoop.scatter;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import dev.levee.bench.progress.ProgressReporter;
import dev.levee.sponge.placement.BatchSamplingPolicy;
import dev.levee.sponge.placement.FreeListPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code scatter-sim}: SpongeFiles' remote placement at 32 to 1,000 servers, simulated. Both
 * policies run the real placement code ({@link PlacementSimulation}) on the same seeds; each line
 * records, per policy, scale and seed, the pool's utilization when the first allocation is refused
 * and when the first chunk finds no server at all, the share of servers kept busy (the thesis's U),
 * the spread of load, and the tracker reads and store requests per chunk placed.
 */
public final class ScatterSimSuite implements Suite {
  static final String NAME = "scatter-sim";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String summary() {
    return "Scatter batch sampling vs the free list: SpongeFiles placement simulated at 32-1,000"
        + " servers (real placement code, stale tracker list)";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.optional("servers", "N,N,...", "numbers of sponge servers", "32,100,320,1000"),
        OptionSpec.optional(
            "tasks-per-server", "N", "spilling tasks per server (M = N x this)", "1"),
        OptionSpec.optional("capacity", "N", "free chunks per server at the start", "128"),
        OptionSpec.optional("sample-size", "K", "servers sampled per chunk", "5"),
        OptionSpec.optional(
            "window-factor", "PHI", "stores in flight per task = ceil(PHI x K)", "2"),
        OptionSpec.optional(
            "stale-rounds",
            "N",
            "rounds between two tracker lists (a round = one chunk store per server)",
            "100"),
        OptionSpec.optional(
            "file-chunks", "N", "chunks per spill file (one tracker read each)", "16"),
        OptionSpec.optional("replicas", "N", "copies of each chunk", "1"),
        OptionSpec.optional(
            "reply-rounds",
            "N",
            "rounds a store's reply takes to reach its task (0: before the next round)",
            "0"),
        OptionSpec.optional(
            "load-reports",
            "on|off",
            "whether store replies report the server's queue and free chunks (off: servers before"
                + " they did)",
            "on"),
        OptionSpec.optional("seeds", "N", "seeds per scale and policy", "3"));
  }

  @Override
  public void run(SuiteContext context) {
    ParsedOptions o = context.options();
    List<Integer> scales = new ArrayList<>();
    for (String s : o.string("servers").split(",")) {
      int n = Integer.parseInt(s.trim());
      if (n < 2 || n > 100_000) {
        throw new IllegalArgumentException("--servers: each value in [2, 100000], got " + n);
      }
      scales.add(n);
    }
    int perServer = o.intIn("tasks-per-server", 1, 64);
    int capacity = o.intIn("capacity", 1, 1 << 20);
    int k = o.intIn("sample-size", 1, 64);
    double phi = o.doubleIn("window-factor", 1, 16, false);
    int stale = o.intIn("stale-rounds", 1, 1 << 20);
    int fileChunks = o.intIn("file-chunks", 1, 1 << 20);
    int replicas = o.intIn("replicas", 1, 3);
    int replyRounds = o.intIn("reply-rounds", 0, 1000);
    String reports = o.string("load-reports");
    if (!reports.equals("on") && !reports.equals("off")) {
      throw new IllegalArgumentException("--load-reports: on or off, got " + reports);
    }
    boolean loadReports = reports.equals("on");
    int seeds = o.intIn("seeds", 1, 1000);
    List<String> policies = List.of(FreeListPolicy.NAME, BatchSamplingPolicy.NAME);
    ProgressReporter progress =
        context.progress("scatter-sim", (long) scales.size() * seeds * policies.size(), "runs");
    context
        .out()
        .printf(
            Locale.ROOT,
            "%-15s %6s %8s | %9s %9s %9s %9s | %7s %6s | %9s %9s%n",
            "policy",
            "N",
            "bound U",
            "util@1st",
            "util@spill",
            "busy",
            "busy-U",
            "max/mean",
            "CV",
            "zk/chunk",
            "req/chunk");
    for (int n : scales) {
      for (String policy : policies) {
        List<PlacementSimulation.Outcome> outs = new ArrayList<>();
        PlacementSimulation.Params last = null;
        for (int seed = 0; seed < seeds; seed++) {
          PlacementSimulation.Params p =
              new PlacementSimulation.Params(
                  policy,
                  n,
                  perServer,
                  capacity,
                  k,
                  phi,
                  stale,
                  fileChunks,
                  replicas,
                  replyRounds,
                  loadReports,
                  seed);
          last = p;
          long start = System.nanoTime();
          PlacementSimulation.Outcome r = new PlacementSimulation(p).run();
          double seconds = (System.nanoTime() - start) / 1e9;
          outs.add(r);
          Map<String, Object> params = new LinkedHashMap<>();
          params.put("servers", n);
          params.put("tasks", p.tasks());
          params.put("capacity_chunks", capacity);
          params.put("sample_size", k);
          params.put("window_factor", phi);
          params.put("window", p.window());
          params.put("stale_rounds", stale);
          params.put("file_chunks", fileChunks);
          params.put("replicas", replicas);
          params.put("reply_rounds", replyRounds);
          params.put("load_reports", loadReports);
          Map<String, Double> m = new LinkedHashMap<>();
          m.put("bound_u_pct", 100 * p.boundU());
          m.put("util_at_first_refusal_pct", 100 * r.utilizationAtFirstRefusal());
          m.put("util_at_first_spill_pct", 100 * r.utilizationAtFirstSpill());
          m.put("busy_until_first_refusal_pct", 100 * r.busyUntilFirstRefusal());
          m.put("busy_until_first_spill_pct", 100 * r.busyUntilFirstSpill());
          m.put("max_over_mean_at_half", r.maxOverMeanAtHalf());
          m.put("cv_at_half", r.cvAtHalf());
          m.put("max_over_mean_at_first_refusal", r.maxOverMeanAtFirstRefusal());
          m.put("cv_at_first_refusal", r.cvAtFirstRefusal());
          m.put("tracker_reads_per_chunk", r.trackerReadsPerChunk());
          m.put("store_requests_per_chunk", r.storesPerChunk());
          m.put("chunks_placed", (double) r.chunksPlaced());
          m.put("rounds", (double) r.rounds());
          m.put("seconds", seconds);
          m.put("seed", (double) seed);
          context.record(policy, params, m, seed);
          progress.advance(1);
        }
        context
            .out()
            .printf(
                Locale.ROOT,
                "%-15s %6d %7.2f%% | %8.2f%% %8.2f%% %8.2f%% %+8.2f | %7.2f %6.3f | %9.4f %9.2f%n",
                policy,
                n,
                100 * last.boundU(),
                100 * mean(outs, PlacementSimulation.Outcome::utilizationAtFirstRefusal),
                100 * mean(outs, PlacementSimulation.Outcome::utilizationAtFirstSpill),
                100 * mean(outs, PlacementSimulation.Outcome::busyUntilFirstRefusal),
                100
                    * (mean(outs, PlacementSimulation.Outcome::busyUntilFirstRefusal)
                        - last.boundU()),
                mean(outs, PlacementSimulation.Outcome::maxOverMeanAtHalf),
                mean(outs, PlacementSimulation.Outcome::cvAtHalf),
                mean(outs, PlacementSimulation.Outcome::trackerReadsPerChunk),
                mean(outs, PlacementSimulation.Outcome::storesPerChunk));
      }
    }
    progress.finish();
  }

  private static double mean(
      List<PlacementSimulation.Outcome> outs,
      java.util.function.ToDoubleFunction<PlacementSimulation.Outcome> f) {
    return outs.stream().mapToDouble(f).average().orElse(Double.NaN);
  }
}
