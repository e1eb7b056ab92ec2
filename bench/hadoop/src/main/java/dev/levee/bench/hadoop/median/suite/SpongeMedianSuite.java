package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.hadoop.median.MedianRun;
import dev.levee.bench.hadoop.median.MedianVariants;
import dev.levee.bench.hadoop.median.NumbersInput;
import dev.levee.bench.hadoop.median.SpongeCluster;
import dev.levee.bench.hadoop.median.load.CoRunnerJob;
import dev.levee.bench.hadoop.median.logs.ContainerLogs;
import dev.levee.bench.hadoop.median.logs.FinalMergeTime;
import dev.levee.bench.hadoop.median.logs.MergePasses;
import dev.levee.bench.results.RepoLayout;
import dev.levee.sponge.SpongeCounters;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * {@code sponge-median}: the SpongeFiles paper's Median job (Figures 4-6), scaled down. One reducer
 * takes about ten times its heap; stock Hadoop spills it to local disk and merges it in several
 * rounds, SpongeFiles spill it to the local and remote sponges and merge once. Beside the paper's
 * baseline (stock defaults) runs stock as an operator tunes it first (see {@link
 * MedianVariants#stockTuned}), at the same heap. Each condition (no contention, background disk
 * readers on the spill disk, page cache squeezed, and a no-spill reducer: the bigger-heap line,
 * with the container it costs) runs the variants on the same data in the same cluster, with a small
 * co-running sort measured alone and next to each variant.
 */
public final class SpongeMedianSuite implements Suite {
  /**
   * Each NodeManager offers this much to containers: the AM, a dozen small maps, and the no-spill
   * reducer fit.
   */
  static final int NODE_MANAGER_MEMORY_MB = 2048;

  private static final int CO_RUNNER_FILES = 4;
  private static final Path NUMBERS = new Path("/sponge-median/numbers");
  private static final Path CO_RUNNER_INPUT = new Path("/sponge-median/co-runner-input");

  @Override
  public String name() {
    return "sponge-median";
  }

  @Override
  public String summary() {
    return "SpongeFiles Median job, stock vs SpongeFiles: no contention, disk contention, memory pressure, no spill";
  }

  @Override
  public List<OptionSpec> options() {
    return MedianSettings.options();
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    MedianSettings s = MedianSettings.from(context.options());
    PrintStream err = context.err();
    java.nio.file.Path base =
        RepoLayout.repoRoot(java.nio.file.Path.of("").toAbsolutePath())
            .resolve(".levee/sponge-median");
    Files.createDirectories(base);
    err.printf(
        Locale.ROOT,
        "sponge-median: %,d numbers (%d MB into one reducer of %d MB heap), %d maps, "
            + "io.sort.factor %d, %d NodeManagers with %d MB sponges; conditions %s; %d repetition(s)%n",
        s.numbers(),
        s.reducerInputBytes() / 1_000_000,
        s.reduceHeapMb(),
        s.maps(),
        s.ioSortFactor(),
        MedianSettings.NODE_MANAGERS,
        s.poolMbPerNode(),
        s.conditions().stream().map(c -> c.label).toList(),
        s.repetitions());
    List<Row> rows = new ArrayList<>();
    try (SpongeCluster cluster =
        SpongeCluster.start(
            base,
            "median",
            MedianSettings.NODE_MANAGERS,
            s.poolMbPerNode(),
            NODE_MANAGER_MEMORY_MB,
            s.chunkSize())) {
      Configuration conf = cluster.clientConf();
      conf.setInt(MRJobConfig.IO_SORT_FACTOR, s.ioSortFactor());
      NumbersInput.generate(conf, NUMBERS, s.numbers(), s.maps(), context);
      if (s.coRunner()) {
        CoRunnerJob.generate(conf, CO_RUNNER_INPUT, s.coRunnerRecords(), CO_RUNNER_FILES, context);
      }
      Run run = new Run(context, s, cluster, conf);
      for (int rep = 0; rep < s.repetitions(); rep++) {
        for (Condition condition : s.conditions()) {
          rows.addAll(run.condition(condition, rep));
        }
      }
    }
    printTable(context.out(), rows);
  }

  /** One printed line per variant run. */
  record Row(Condition condition, Variant variant, int repetition, Map<String, Double> metrics) {}

  /**
   * The state of one suite run: the cluster, the settings and the reference answer every run must
   * match.
   */
  private static final class Run {
    private final SuiteContext context;
    private final MedianSettings s;
    private final SpongeCluster cluster;
    private final Configuration conf;
    private final ContainerLogs logs;
    private Long referenceMedian;

    Run(SuiteContext context, MedianSettings s, SpongeCluster cluster, Configuration conf) {
      this.context = context;
      this.s = s;
      this.cluster = cluster;
      this.conf = conf;
      this.logs = new ContainerLogs(cluster.cluster().workDir().resolve("yarn"));
    }

    List<Row> condition(Condition condition, int rep) throws Exception {
      PrintStream err = context.err();
      int heapMb =
          condition.spills ? s.reduceHeapMb() : NoSpillReducer.heapMb(s.reducerInputBytes());
      Configuration stock =
          condition.spills
              ? MedianVariants.stock(conf, heapMb)
              : NoSpillReducer.configure(conf, heapMb);
      Map<Variant, Configuration> confs = new EnumMap<>(Variant.class);
      confs.put(Variant.STOCK, stock);
      confs.put(Variant.STOCK_TUNED, MedianVariants.stockTuned(stock));
      confs.put(Variant.SPONGEFILES, MedianVariants.spongeFiles(stock));
      // Without a spill there is nothing to tune: the no-spill condition is the bound and the
      // check that SpongeFiles cost nothing when unused.
      List<Variant> variants =
          s.variants().stream().filter(v -> condition.spills || v != Variant.STOCK_TUNED).toList();
      boolean coRuns = s.coRunner() && condition.spills;
      Map<Variant, Map<String, Double>> metrics = new EnumMap<>(Variant.class);
      Map<Variant, Long> medians = new EnumMap<>(Variant.class);
      err.printf(
          "sponge-median: repetition %d, condition %s (reducer heap %d MB)%n",
          rep, condition.label, heapMb);
      // The spill disk: the NodeManagers' local dirs live under the cluster's work directory.
      try (ConditionLoad load =
          ConditionLoad.start(condition, s, cluster.cluster().workDir(), err)) {
        Double alone = null;
        if (coRuns) {
          alone = CoRunnerJob.run(conf, CO_RUNNER_INPUT, new Path("/sponge-median/co-runner-out"));
          err.printf(Locale.ROOT, "sponge-median:   co-runner alone %.1f s%n", alone);
        }
        for (Variant v : Variant.order(variants, rep)) {
          Map<String, Double> m = new LinkedHashMap<>();
          try {
            MedianRun r = runVariant(v, confs.get(v), load, coRuns ? alone : null, m);
            medians.put(v, r.median());
            m.put("failed", 0.0);
          } catch (Exception e) {
            err.printf("sponge-median:   %s FAILED: %s%n", v.label, e);
            m.put("failed", 1.0);
          }
          metrics.put(v, m);
        }
      }
      // What each reducer of the job is given (the bigger-heap line's cost is its container).
      int containerMb =
          stock.getInt(MRJobConfig.REDUCE_MEMORY_MB, MRJobConfig.DEFAULT_REDUCE_MEMORY_MB);
      return record(condition, rep, heapMb, containerMb, metrics, medians);
    }

    private MedianRun runVariant(
        Variant v,
        Configuration jobConf,
        ConditionLoad load,
        Double coAloneSeconds,
        Map<String, Double> m)
        throws Exception {
      ConcurrentCoRunner co =
          coAloneSeconds == null
              ? null
              : new ConcurrentCoRunner(
                  () ->
                      CoRunnerJob.run(
                          conf,
                          CO_RUNNER_INPUT,
                          new Path("/sponge-median/co-runner-out-" + v.label)));
      load.beginJob();
      long start = System.nanoTime();
      MedianRun r;
      try {
        // The co-runner starts when the maps are done: the reducer is then fetching, spilling and
        // merging, the phase
        // whose disk traffic a neighbour feels (started earlier it would only queue behind the
        // maps' containers).
        r =
            MedianRun.run(
                jobConf,
                NUMBERS,
                new Path("/sponge-median/median-" + v.label),
                s.numbers(),
                v == Variant.SPONGEFILES ? SpongeCounters.GROUP : null,
                job -> {
                  load.check();
                  if (co != null && !co.started() && job.mapProgress() >= 1f) {
                    co.start();
                  }
                },
                s.jobTimeoutSeconds());
      } catch (Exception e) {
        // Never leave the co-runner behind a failed job: wait for it, keeping the job's failure
        // first.
        if (co != null && co.started()) {
          try {
            co.await();
          } catch (Exception coFailure) {
            e.addSuppressed(coFailure);
          }
        }
        throw e;
      }
      long end = System.nanoTime();
      m.put("seconds", r.seconds());
      m.putAll(
          RunMetrics.reduceSide(v, r.reduceCounters(), v.stockShuffle() ? stockPasses(r) : null));
      finalMergeSeconds(r).ifPresent(seconds -> m.put("reduce_final_merge_seconds", seconds));
      m.putAll(load.endJob());
      if (co != null) {
        ConcurrentCoRunner.Outcome o = co.await();
        m.put("co_runner_seconds", o.seconds());
        m.put("co_runner_alone_seconds", coAloneSeconds);
        m.put("co_runner_slowdown", Ratios.slowdown(o.seconds(), coAloneSeconds));
        m.put(
            "co_runner_overlap_fraction",
            Ratios.overlapFraction(o.startNanos(), o.endNanos(), start, end));
      }
      context
          .err()
          .printf(
              Locale.ROOT,
              "sponge-median:   %-11s %6.1f s, median %d, spilled %,.0f bytes, %s merge"
                  + " round(s), final merge and reduce %s s%s%n",
              v.label,
              r.seconds(),
              r.median(),
              m.get("spill_bytes"),
              m.containsKey("merge_rounds") ? String.format("%.0f", m.get("merge_rounds")) : "?",
              m.containsKey("reduce_final_merge_seconds")
                  ? String.format(Locale.ROOT, "%.1f", m.get("reduce_final_merge_seconds"))
                  : "?",
              m.containsKey("co_runner_slowdown")
                  ? String.format(Locale.ROOT, ", co-runner x%.2f", m.get("co_runner_slowdown"))
                  : "");
      return r;
    }

    /**
     * The reducer's final merge and reduce, timed from its own log (see {@link FinalMergeTime}).
     */
    private Optional<Double> finalMergeSeconds(MedianRun r) {
      try {
        Optional<Double> seconds =
            FinalMergeTime.seconds(
                logs.attemptLines(r.reduceAttempt()), r.reduceAttempt().toString());
        if (seconds.isEmpty()) {
          context
              .err()
              .println(
                  "sponge-median:   no final-merge or done line in the log of "
                      + r.reduceAttempt()
                      + "; its final merge time not recorded");
        }
        return seconds;
      } catch (Exception e) {
        context
            .err()
            .println("sponge-median:   cannot read the log of " + r.reduceAttempt() + ": " + e);
        return Optional.empty();
      }
    }

    private MergePasses stockPasses(MedianRun r) {
      try {
        Optional<MergePasses> p = logs.mergePasses(r.reduceAttempt());
        if (p.isEmpty()) {
          context
              .err()
              .println(
                  "sponge-median:   no shuffle log found for "
                      + r.reduceAttempt()
                      + "; stock's merge rounds not recorded");
        }
        return p.orElse(null);
      } catch (Exception e) {
        context
            .err()
            .println(
                "sponge-median:   cannot read stock's merge passes for "
                    + r.reduceAttempt()
                    + ": "
                    + e);
        return null;
      }
    }

    private List<Row> record(
        Condition condition,
        int rep,
        int heapMb,
        int containerMb,
        Map<Variant, Map<String, Double>> metrics,
        Map<Variant, Long> medians) {
      if (referenceMedian == null && !medians.isEmpty()) {
        referenceMedian = medians.values().iterator().next();
      }
      Double stockSeconds = metrics.get(Variant.STOCK).get("seconds");
      List<Row> rows = new ArrayList<>();
      for (Variant v : Variant.values()) {
        Map<String, Double> m = metrics.get(v);
        if (m == null) {
          continue; // not run in this condition
        }
        if (medians.containsKey(v)) {
          // Every answer must equal the first one: stock against SpongeFiles, and each condition
          // against the rest.
          boolean mismatch = !medians.get(v).equals(referenceMedian);
          m.put("output_mismatch", mismatch ? 1.0 : 0.0);
          if (mismatch) {
            context
                .err()
                .printf(
                    "sponge-median:   %s median %d differs from %d: OUTPUT MISMATCH%n",
                    v.label, medians.get(v), referenceMedian);
          }
        }
        if (!condition.spills && m.containsKey("spill_bytes")) {
          m.put("nothing_spilled", RunMetrics.nothingSpilled(m) ? 1.0 : 0.0);
          if (v == Variant.SPONGEFILES && stockSeconds != null && m.containsKey("seconds")) {
            m.put(
                "no_spill_within_5pct",
                Ratios.withinNoSpillTolerance(m.get("seconds"), stockSeconds) ? 1.0 : 0.0);
          }
        }
        Map<String, Object> params = s.params(condition, heapMb);
        params.put("reduce_container_mb", containerMb);
        if (v == Variant.STOCK_TUNED) {
          params.put("tuning", MedianVariants.tuning());
        }
        context.record(v.label, params, m, rep);
        rows.add(new Row(condition, v, rep, m));
      }
      return rows;
    }
  }

  private static void printTable(PrintStream out, List<Row> rows) {
    out.println();
    out.printf(
        "%-32s %-11s %3s %8s %14s %14s %14s %6s %9s%n",
        "condition",
        "variant",
        "rep",
        "seconds",
        "disk spill B",
        "local mem B",
        "remote mem B",
        "rounds",
        "co-runner");
    for (Row r : rows) {
      Map<String, Double> m = r.metrics();
      if (m.getOrDefault("failed", 0.0) > 0) {
        out.printf(
            "%-32s %-11s %3d FAILED%n", r.condition().label, r.variant().label, r.repetition());
        continue;
      }
      out.printf(
          Locale.ROOT,
          "%-32s %-11s %3d %8.1f %,14.0f %,14.0f %,14.0f %6s %9s%n",
          r.condition().label,
          r.variant().label,
          r.repetition(),
          m.get("seconds"),
          m.getOrDefault("spill_local_disk_bytes", 0.0),
          m.getOrDefault("spill_local_memory_bytes", 0.0),
          m.getOrDefault("spill_remote_memory_bytes", 0.0),
          m.containsKey("merge_rounds") ? String.format("%.0f", m.get("merge_rounds")) : "?",
          m.containsKey("co_runner_slowdown")
              ? String.format(Locale.ROOT, "x%.2f", m.get("co_runner_slowdown"))
              : "-");
    }
  }
}
