package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.disk.DiskPlace;
import dev.levee.bench.disk.NodeDisks;
import dev.levee.bench.hadoop.median.MedianRun;
import dev.levee.bench.hadoop.median.MedianVariants;
import dev.levee.bench.hadoop.median.NumbersInput;
import dev.levee.bench.hadoop.median.SpongeCluster;
import dev.levee.bench.hadoop.median.TmpfsLocalDirs;
import dev.levee.bench.hadoop.median.load.CoRunnerJob;
import dev.levee.bench.hadoop.median.logs.ContainerLogs;
import dev.levee.bench.hadoop.median.logs.FinalMergeTime;
import dev.levee.bench.hadoop.median.logs.MergePasses;
import dev.levee.bench.hadoop.median.pig.PigBags;
import dev.levee.bench.hadoop.median.pig.PigQueries;
import dev.levee.bench.hadoop.median.pig.PigRun;
import dev.levee.bench.hadoop.median.pig.WebPages;
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
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.yarn.server.nodemanager.LocalDirsHandlerService;

/**
 * {@code sponge-median}: the SpongeFiles paper's three macro jobs (Figures 4-6), scaled down. The
 * Median job: one reducer takes about ten times its heap; stock Hadoop spills it to local disk and
 * merges it in several rounds, SpongeFiles spill it to the local and remote sponges and merge once.
 * Frequent Anchortext and Spam Quantiles: Pig queries over the seeded web pages whose skewed
 * groups' bags spill in one reducer; stock Pig spills them to local files, SpongeFiles into
 * sponges. Beside the paper's baseline (stock defaults) runs stock as an operator tunes it first
 * (see {@link MedianVariants#stockTuned}), at the same heap, and stock with its local dirs on a
 * tmpfs as large as the sponge (in a second cluster: local dirs are the NodeManagers'). Each
 * condition (no contention, background disk readers on the spill disk, page cache squeezed, and a
 * no-spill reducer: the bigger-heap line, with the container it costs) runs every job and variant
 * on the same data, the Median job with a small co-running sort measured alone and next to each
 * variant.
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
  private static final Path PAGES = new Path("/sponge-median/web-pages");

  @Override
  public String name() {
    return "sponge-median";
  }

  @Override
  public String summary() {
    return "SpongeFiles Median job, stock vs SpongeFiles: no contention, disk contention, memory pressure, no spill";
  }

  @Override
  public Object newOptions() {
    return new MedianSettings.Options();
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    MedianSettings.Options options = context.options(MedianSettings.Options.class);
    MedianSettings s = MedianSettings.from(options);
    PrintStream err = context.err();
    java.nio.file.Path base =
        RepoLayout.repoRoot(java.nio.file.Path.of("").toAbsolutePath())
            .resolve(".levee/sponge-median");
    Files.createDirectories(base);
    err.printf(
        Locale.ROOT,
        "sponge-median: jobs %s; %d maps, io.sort.factor %d, %d NodeManagers with %d MB sponges;"
            + " conditions %s; variants %s; %d repetition(s)%n",
        s.jobs().stream().map(j -> j.label).toList(),
        s.maps(),
        s.ioSortFactor(),
        MedianSettings.NODE_MANAGERS,
        s.poolMbPerNode(),
        s.conditions().stream().map(c -> c.label).toList(),
        s.variants().stream().map(v -> v.label).toList(),
        s.repetitions());
    if (s.jobs().contains(Workload.MEDIAN)) {
      err.printf(
          Locale.ROOT,
          "sponge-median: median: %,d numbers (%d MB into one reducer of %d MB heap)%n",
          s.numbers(),
          s.reducerInputBytes() / 1_000_000,
          s.reduceHeapMb());
    }
    if (s.jobs().stream().anyMatch(j -> j.pig)) {
      err.printf(
          Locale.ROOT,
          "sponge-median: Pig jobs: %,d web pages into one reducer of %d MB heap%n",
          s.pages(),
          s.pigReduceHeapMb());
    }
    List<Row> rows = new ArrayList<>();
    Map<Workload, String> reference = new EnumMap<>(Workload.class);
    List<Variant> onDisk = s.variants().stream().filter(v -> !v.onTmpfs()).toList();
    List<Variant> onTmpfs = s.variants().stream().filter(Variant::onTmpfs).toList();
    if (!onTmpfs.isEmpty() && options.disk.emulated()) {
      throw new BadArgumentException(
          "--disk emulated with "
              + onTmpfs.stream().map(v -> v.label).toList()
              + ": that arm's cluster keeps its files on the real disk and its local dirs on"
              + " tmpfs, so it would not compare with arms on the emulated disk; leave it out of"
              + " --variants");
    }
    if (!onDisk.isEmpty()) {
      // On --disk emulated the whole cluster (HDFS, the NodeManagers' local dirs, the background
      // readers' files) lives on one emulated spindle, as a node's tasks shared its disks.
      try (DiskPlace place = options.disk.open(base, err);
          NodeDisks nodeDisks =
              s.spindlePerNode()
                  ? options.disk.openPerNode(base, MedianSettings.NODE_MANAGERS, err)
                  : null) {
        // ZooKeeper stays on the real disk: a deployment gives it a disk of its own.
        rows.addAll(
            phase(
                context, s, place, nodeDisks, onDisk, null, base.resolve("zookeeper"), reference));
      }
    }
    if (!onTmpfs.isEmpty()) {
      err.printf(
          "sponge-median: stock-tmpfs: a second cluster whose local dirs are %d MB tmpfs mounts%n",
          s.poolMbPerNode());
      try (TmpfsLocalDirs tmpfs =
          TmpfsLocalDirs.mount(MedianSettings.NODE_MANAGERS, s.poolMbPerNode(), err)) {
        rows.addAll(
            phase(
                context,
                s,
                DiskPlace.real(base),
                null,
                onTmpfs,
                tmpfs,
                base.resolve("zookeeper"),
                reference));
      }
    }
    printTable(context.out(), rows);
  }

  /**
   * Every repetition and condition of {@code variants} on one cluster: the usual one, or with
   * {@code tmpfs} the stock-on-tmpfs arm's.
   */
  private static List<Row> phase(
      SuiteContext context,
      MedianSettings s,
      DiskPlace disk,
      NodeDisks nodeDisks,
      List<Variant> variants,
      TmpfsLocalDirs tmpfs,
      java.nio.file.Path zooKeeperDir,
      Map<Workload, String> reference)
      throws Exception {
    List<Row> rows = new ArrayList<>();
    try (SpongeCluster cluster =
        SpongeCluster.start(
            disk.dir(),
            tmpfs == null ? "median" : "median-tmpfs",
            MedianSettings.NODE_MANAGERS,
            s.poolMbPerNode(),
            NODE_MANAGER_MEMORY_MB,
            s.chunkSize(),
            tmpfs,
            nodeDisks,
            zooKeeperDir)) {
      Configuration conf = cluster.clientConf();
      conf.setInt(MRJobConfig.IO_SORT_FACTOR, s.ioSortFactor());
      if (s.jobs().contains(Workload.MEDIAN)) {
        NumbersInput.generate(conf, NUMBERS, s.numbers(), s.maps(), context);
        if (s.coRunner()) {
          CoRunnerJob.generate(
              conf, CO_RUNNER_INPUT, s.coRunnerRecords(), CO_RUNNER_FILES, context);
        }
      }
      if (s.jobs().stream().anyMatch(j -> j.pig)) {
        WebPages.generate(conf, PAGES, s.pages(), s.maps(), context);
      }
      Run run = new Run(context, s, cluster, conf, tmpfs, disk.params(), reference);
      for (int rep = 0; rep < s.repetitions(); rep++) {
        for (Condition condition : s.conditions()) {
          rows.addAll(run.condition(condition, rep, variants));
        }
      }
    }
    return rows;
  }

  /** One printed line per variant run. */
  record Row(
      Workload job,
      Condition condition,
      Variant variant,
      int repetition,
      Map<String, Double> metrics) {}

  /**
   * The state of one cluster's runs: the cluster, the settings and the reference answers every run
   * must match (shared with the other cluster's runs, which read the same seeded data).
   */
  private static final class Run {
    private final SuiteContext context;
    private final MedianSettings s;
    private final SpongeCluster cluster;
    private final Configuration conf;
    private final ContainerLogs logs;
    private final TmpfsLocalDirs tmpfs;
    private final Map<Workload, String> reference;

    /** Which disk the run's files were on; every line records it. */
    private final Map<String, Object> diskParams;

    Run(
        SuiteContext context,
        MedianSettings s,
        SpongeCluster cluster,
        Configuration conf,
        TmpfsLocalDirs tmpfs,
        Map<String, Object> diskParams,
        Map<Workload, String> reference) {
      this.diskParams = diskParams;
      this.context = context;
      this.s = s;
      this.cluster = cluster;
      this.conf = conf;
      this.logs = new ContainerLogs(cluster.cluster().workDir().resolve("yarn"));
      this.tmpfs = tmpfs;
      this.reference = reference;
    }

    List<Row> condition(Condition condition, int rep, List<Variant> chosen) throws Exception {
      PrintStream err = context.err();
      // Without a spill there is nothing to tune and nothing to put on a tmpfs: the no-spill
      // condition is the bound and the check that SpongeFiles cost nothing when unused.
      List<Variant> variants =
          chosen.stream()
              .filter(v -> condition.spills || (v != Variant.STOCK_TUNED && !v.onTmpfs()))
              .toList();
      if (variants.isEmpty()) {
        return List.of();
      }
      List<Row> rows = new ArrayList<>();
      // The spill disk: the NodeManagers' local dirs live under the cluster's work directory.
      try (ConditionLoad load =
          ConditionLoad.start(condition, s, cluster.cluster().workDir(), err)) {
        for (Workload job : s.jobs()) {
          rows.addAll(
              job.pig
                  ? pigJob(job, condition, rep, variants, load)
                  : median(condition, rep, variants, load));
        }
      }
      return rows;
    }

    /** The job configuration of each variant, from stock's, each carrying --task-java-opts. */
    private Map<Variant, Configuration> confs(Configuration stockArm) {
      Configuration stock = new Configuration(stockArm);
      s.taskJavaOptions().applyTo(stock);
      Map<Variant, Configuration> confs = new EnumMap<>(Variant.class);
      confs.put(Variant.STOCK, stock);
      confs.put(Variant.STOCK_TUNED, MedianVariants.stockTuned(stock));
      confs.put(Variant.SPONGEFILES, MedianVariants.spongeFiles(stock));
      // The same job as stock: only the cluster's local dirs differ.
      confs.put(Variant.STOCK_TMPFS, stock);
      return confs;
    }

    private List<Row> median(
        Condition condition, int rep, List<Variant> variants, ConditionLoad load) throws Exception {
      PrintStream err = context.err();
      int heapMb =
          condition.spills ? s.reduceHeapMb() : NoSpillReducer.heapMb(s.reducerInputBytes());
      Configuration stock =
          condition.spills
              ? MedianVariants.stock(conf, heapMb)
              : NoSpillReducer.configure(conf, heapMb);
      Map<Variant, Configuration> confs = confs(stock);
      // The no-spill bound runs beside the co-runner too: a bound measured on a quieter machine
      // than
      // the arms it bounds would overstate every spill penalty.
      boolean coRuns = s.coRunner();
      Map<Variant, Map<String, Double>> metrics = new EnumMap<>(Variant.class);
      Map<Variant, String> answers = new EnumMap<>(Variant.class);
      err.printf(
          "sponge-median: repetition %d, condition %s, job median (reducer heap %d MB)%n",
          rep, condition.label, heapMb);
      Double alone =
          coRuns
              ? CoRunnerJob.run(conf, CO_RUNNER_INPUT, new Path("/sponge-median/co-runner-out"))
              : null;
      if (coRuns) {
        err.printf(Locale.ROOT, "sponge-median:   co-runner alone %.1f s%n", alone);
      }
      for (Variant v : Variant.order(variants, rep)) {
        Map<String, Double> m = new LinkedHashMap<>();
        measure(
            v,
            m,
            () -> {
              MedianRun r = runVariant(v, confs.get(v), load, alone, m);
              answers.put(v, String.valueOf(r.median()));
            });
        metrics.put(v, m);
      }
      // What each reducer of the job is given (the bigger-heap line's cost is its container).
      int containerMb =
          stock.getInt(MRJobConfig.REDUCE_MEMORY_MB, MRJobConfig.DEFAULT_REDUCE_MEMORY_MB);
      return record(Workload.MEDIAN, condition, rep, heapMb, containerMb, metrics, answers);
    }

    /**
     * One Pig query under one condition, every variant: stock Pig's bags (on the usual disk, tuned,
     * or on tmpfs) or SpongeFiles' (the bag factory lines, and the SpongeFiles shuffle as for the
     * Median job: the paper ran both Hadoop and Pig modified).
     */
    private List<Row> pigJob(
        Workload job, Condition condition, int rep, List<Variant> variants, ConditionLoad load)
        throws Exception {
      PrintStream err = context.err();
      int heapMb = condition.spills ? s.pigReduceHeapMb() : s.pigNoSpillHeapMb();
      Configuration stock =
          condition.spills
              ? MedianVariants.stock(conf, heapMb)
              : NoSpillReducer.configure(conf, heapMb);
      Map<Variant, Configuration> confs = confs(stock);
      // The no-spill line lets bags hold most of the big heap: Pig's 20% would spill at any size.
      String memusage = condition.spills ? MedianSettings.PIG_MEMUSAGE : NO_SPILL_MEMUSAGE;
      Map<Variant, Map<String, Double>> metrics = new EnumMap<>(Variant.class);
      Map<Variant, String> answers = new EnumMap<>(Variant.class);
      err.printf(
          "sponge-median: repetition %d, condition %s, job %s (reducer heap %d MB)%n",
          rep, condition.label, job.label, heapMb);
      for (Variant v : Variant.order(variants, rep)) {
        Map<String, Double> m = new LinkedHashMap<>();
        Properties pig =
            v == Variant.SPONGEFILES
                ? PigBags.spongeFiles(confs.get(v), memusage)
                : PigBags.stock(confs.get(v), memusage);
        Path output = new Path("/sponge-median/" + job.label + "-" + v.label);
        List<String> query =
            job == Workload.ANCHORTEXT
                ? PigQueries.frequentAnchortext(PAGES, output)
                : PigQueries.spamQuantiles(PAGES, output);
        measure(
            v,
            m,
            () -> {
              load.beginJob();
              PigRun r = PigRun.run(cluster.cluster(), pig, query, output, s.jobTimeoutSeconds());
              load.check();
              answers.put(v, r.digest().toString());
              m.put("seconds", r.seconds());
              m.putAll(
                  RunMetrics.reduceSide(
                      v,
                      r.reduceCounters(),
                      v.stockShuffle() ? stockPasses(r.reduceAttempt()) : null));
              m.putAll(BagMetrics.reduceSide(r.reduceCounters()));
              m.putAll(load.endJob());
              err.printf(
                  Locale.ROOT,
                  "sponge-median:   %-11s %6.1f s, output %s, bags spilled: %s (%.0f by Pig's"
                      + " memory manager, %.0f proactively, %.0f into SpongeFiles: %,.0f B local"
                      + " memory, %,.0f B remote, %,.0f B disk)%n",
                  v.label,
                  r.seconds(),
                  r.digest(),
                  m.get("bags_spilled") > 0 ? "yes" : "no",
                  m.get("pig_memory_manager_spills"),
                  m.get("pig_proactive_spill_bags"),
                  m.get("pig_bag_spills_sponge"),
                  m.get("pig_bag_local_memory_bytes"),
                  m.get("pig_bag_remote_memory_bytes"),
                  m.get("pig_bag_local_disk_bytes"));
            });
        metrics.put(v, m);
      }
      int containerMb =
          stock.getInt(MRJobConfig.REDUCE_MEMORY_MB, MRJobConfig.DEFAULT_REDUCE_MEMORY_MB);
      return record(job, condition, rep, heapMb, containerMb, metrics, answers);
    }

    /** One variant's job, as every workload measures it. */
    private interface VariantJob {
      void run() throws Exception;
    }

    /**
     * Runs {@code job} for {@code v}: records into {@code m} whether it failed (a failure is
     * reported and the suite goes on) and, on the stock-on-tmpfs arm, how its local dirs filled.
     */
    private void measure(Variant v, Map<String, Double> m, VariantJob job)
        throws InterruptedException {
      TmpfsLocalDirs.Watch watch = watchTmpfs();
      try {
        job.run();
        m.put("failed", 0.0);
      } catch (Exception e) {
        context.err().printf("sponge-median:   %s FAILED: %s%n", v.label, e);
        m.put("failed", 1.0);
      } finally {
        if (watch != null) {
          m.putAll(watch.stop());
        }
      }
    }

    /** Starts sampling the tmpfs local dirs, on the stock-on-tmpfs arm's cluster only. */
    private TmpfsLocalDirs.Watch watchTmpfs() {
      if (tmpfs == null) {
        return null;
      }
      return tmpfs.watch(
          () -> {
            int bad = 0;
            for (int i = 0; i < cluster.cluster().nodeManagerCount(); i++) {
              LocalDirsHandlerService dirs =
                  cluster.cluster().nodeManager(i).getNMContext().getLocalDirsHandler();
              if (dirs != null && dirs.getLocalDirs().isEmpty()) {
                bad++;
              }
            }
            return bad;
          });
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
      m.putAll(r.phases().metrics());
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
              "sponge-median:   %-11s %6.1f s (maps %.1f s, reducer %.1f s), median %d, spilled"
                  + " %,.0f bytes, %s merge round(s), final merge and reduce %s s%s%n",
              v.label,
              r.seconds(),
              r.phases().mapSeconds(),
              r.phases().reduceSeconds(),
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
      return stockPasses(r.reduceAttempt());
    }

    private MergePasses stockPasses(TaskAttemptID attempt) {
      try {
        Optional<MergePasses> p = logs.mergePasses(attempt);
        if (p.isEmpty()) {
          context
              .err()
              .println(
                  "sponge-median:   no shuffle log found for "
                      + attempt
                      + "; stock's merge rounds not recorded");
        }
        return p.orElse(null);
      } catch (Exception e) {
        context
            .err()
            .println("sponge-median:   cannot read stock's merge passes for " + attempt + ": " + e);
        return null;
      }
    }

    private List<Row> record(
        Workload job,
        Condition condition,
        int rep,
        int heapMb,
        int containerMb,
        Map<Variant, Map<String, Double>> metrics,
        Map<Variant, String> answers) {
      if (!reference.containsKey(job) && !answers.isEmpty()) {
        reference.put(job, answers.values().iterator().next());
      }
      Map<String, Double> stockRun = metrics.get(Variant.STOCK);
      Double stockSeconds = stockRun == null ? null : stockRun.get("seconds");
      List<Row> rows = new ArrayList<>();
      for (Variant v : Variant.values()) {
        Map<String, Double> m = metrics.get(v);
        if (m == null) {
          continue; // not run in this condition
        }
        if (answers.containsKey(v)) {
          // Every answer must equal the first one: stock against SpongeFiles, each condition
          // against the rest, and the tmpfs cluster's against the other's (same seeded data).
          boolean mismatch = !answers.get(v).equals(reference.get(job));
          m.put("output_mismatch", mismatch ? 1.0 : 0.0);
          if (mismatch) {
            context
                .err()
                .printf(
                    "sponge-median:   %s %s answer %s differs from %s: OUTPUT MISMATCH%n",
                    job.label, v.label, answers.get(v), reference.get(job));
          }
        }
        if (!condition.spills && m.containsKey("spill_bytes")) {
          boolean nothing =
              RunMetrics.nothingSpilled(m) && m.getOrDefault("bags_spilled", 0.0) == 0;
          m.put("nothing_spilled", nothing ? 1.0 : 0.0);
          if (v == Variant.SPONGEFILES && stockSeconds != null && m.containsKey("seconds")) {
            m.put(
                "no_spill_within_5pct",
                Ratios.withinNoSpillTolerance(m.get("seconds"), stockSeconds) ? 1.0 : 0.0);
          }
        }
        Map<String, Object> params = new LinkedHashMap<>(s.params(job, condition, heapMb));
        params.putAll(diskParams);
        params.put("reduce_container_mb", containerMb);
        if (v == Variant.STOCK_TUNED) {
          params.put("tuning", MedianVariants.tuning());
        }
        context.record(v.label, params, m, rep);
        rows.add(new Row(job, condition, v, rep, m));
      }
      return rows;
    }
  }

  /** Pig's cached-bag share of the heap in the no-spill condition. */
  static final String NO_SPILL_MEMUSAGE = "0.7";

  private static void printTable(PrintStream out, List<Row> rows) {
    out.println();
    out.printf(
        "%-10s %-32s %-11s %3s %8s %14s %14s %14s %6s %5s %9s %s%n",
        "job",
        "condition",
        "variant",
        "rep",
        "seconds",
        "disk spill B",
        "local mem B",
        "remote mem B",
        "rounds",
        "bags",
        "co-runner",
        "notes");
    for (Row r : rows) {
      Map<String, Double> m = r.metrics();
      String notes = notes(m);
      if (m.getOrDefault("failed", 0.0) > 0) {
        out.printf(
            "%-10s %-32s %-11s %3d FAILED %s%n",
            r.job().label, r.condition().label, r.variant().label, r.repetition(), notes);
        continue;
      }
      out.printf(
          Locale.ROOT,
          "%-10s %-32s %-11s %3d %8.1f %,14.0f %,14.0f %,14.0f %6s %5s %9s %s%n",
          r.job().label,
          r.condition().label,
          r.variant().label,
          r.repetition(),
          m.get("seconds"),
          tier(m, "local_disk"),
          tier(m, "local_memory"),
          tier(m, "remote_memory"),
          m.containsKey("merge_rounds") ? String.format("%.0f", m.get("merge_rounds")) : "?",
          m.containsKey("bags_spilled") ? (m.get("bags_spilled") > 0 ? "spill" : "none") : "-",
          m.containsKey("co_runner_slowdown")
              ? String.format(Locale.ROOT, "x%.2f", m.get("co_runner_slowdown"))
              : "-",
          notes);
    }
  }

  /** Bytes a run put in one tier: the shuffle's and, for a Pig job, its bags'. */
  private static double tier(Map<String, Double> m, String tier) {
    return m.getOrDefault("spill_" + tier + "_bytes", 0.0)
        + m.getOrDefault("pig_bag_" + tier + "_bytes", 0.0);
  }

  /** What the table's numbers do not say: a mismatch, a full or bad tmpfs, no budget. */
  private static String notes(Map<String, Double> m) {
    List<String> notes = new ArrayList<>();
    if (m.getOrDefault("output_mismatch", 0.0) > 0) {
      notes.add("OUTPUT MISMATCH");
    }
    if (m.getOrDefault("tmpfs_filled", 0.0) > 0) {
      notes.add("tmpfs filled");
    }
    if (m.getOrDefault("tmpfs_dirs_marked_bad", 0.0) > 0) {
      notes.add(String.format("%.0f local dir(s) marked bad", m.get("tmpfs_dirs_marked_bad")));
    }
    if (m.containsKey("tmpfs_budget_enforced") && m.get("tmpfs_budget_enforced") == 0) {
      notes.add("tmpfs without budget");
    }
    if (m.containsKey("tmpfs_peak_used_bytes")) {
      notes.add(
          String.format(Locale.ROOT, "tmpfs peak %.0f MB", m.get("tmpfs_peak_used_bytes") / 1e6));
    }
    if (m.getOrDefault("nothing_spilled", 1.0) == 0) {
      notes.add("spilled at the bigger heap");
    }
    return String.join("; ", notes);
  }
}
