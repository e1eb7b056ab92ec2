package dev.levee.bench.hadoop.scatter;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.Converters;
import dev.levee.bench.cli.Range;
import dev.levee.bench.progress.ProgressReporter;
import dev.levee.sponge.placement.BatchSamplingPolicy;
import dev.levee.sponge.placement.FreeListPolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Option;

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

  /** The suite's options. */
  static final class Options {
    @Option(
        names = "--servers",
        paramLabel = "N,N,...",
        split = ",",
        description = "numbers of sponge servers")
    @Range(min = 2, max = 100_000)
    List<Integer> servers = List.of(32, 100, 320, 1000);

    @Option(
        names = "--tasks-per-server",
        paramLabel = "N",
        description = "spilling tasks per server (M = N x this)")
    @Range(min = 1, max = 64)
    int tasksPerServer = 1;

    @Option(
        names = "--capacity",
        paramLabel = "N",
        description = "free chunks per server at the start")
    @Range(min = 1, max = 1 << 20)
    int capacity = 128;

    @Option(names = "--sample-size", paramLabel = "K", description = "servers sampled per chunk")
    @Range(min = 1, max = 64)
    int sampleSize = 5;

    @Option(
        names = "--window-factor",
        paramLabel = "PHI",
        description = "stores in flight per task = ceil(PHI x K)")
    @Range(min = 1, max = 16)
    double windowFactor = 2;

    @Option(
        names = "--stale-rounds",
        paramLabel = "N",
        description = "rounds between two tracker lists (a round = one chunk store per server)")
    @Range(min = 1, max = 1 << 20)
    int staleRounds = 100;

    @Option(
        names = "--file-chunks",
        paramLabel = "N",
        description = "chunks per spill file (one tracker read each)")
    @Range(min = 1, max = 1 << 20)
    int fileChunks = 16;

    @Option(names = "--replicas", paramLabel = "N", description = "copies of each chunk")
    @Range(min = 1, max = 3)
    int replicas = 1;

    @Option(
        names = "--reply-rounds",
        paramLabel = "N",
        description = "rounds a store's reply takes to reach its task (0: before the next round)")
    @Range(min = 0, max = 1000)
    int replyRounds = 0;

    @Option(
        names = "--load-reports",
        paramLabel = "on|off",
        arity = "1",
        converter = Converters.OnOff.class,
        defaultValue = "on",
        showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
        description =
            "whether store replies report the server's queue and free chunks (off: servers before"
                + " they did)")
    boolean loadReports;

    @Option(names = "--seeds", paramLabel = "N", description = "seeds per scale and policy")
    @Range(min = 1, max = 1000)
    int seeds = 3;
  }

  @Override
  public Object newOptions() {
    return new Options();
  }

  @Override
  public void run(SuiteContext context) {
    Options o = context.options(Options.class);
    List<Integer> scales = o.servers;
    int perServer = o.tasksPerServer;
    int capacity = o.capacity;
    int k = o.sampleSize;
    double phi = o.windowFactor;
    int stale = o.staleRounds;
    int fileChunks = o.fileChunks;
    int replicas = o.replicas;
    int replyRounds = o.replyRounds;
    boolean loadReports = o.loadReports;
    int seeds = o.seeds;
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
