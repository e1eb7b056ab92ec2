package dev.levee.bench.hadoop.themis;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.results.RepoLayout;
import dev.levee.bench.results.RunFigures;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.themis.IoAudit;
import dev.levee.themis.ThemisCounters;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * {@code ./levee bench themis}: the paper's workloads (Sort, Pareto-sized records, WordCount,
 * 5-grams, a PageRank iteration, Click-Sessions) on HDFS + YARN in this JVM (two NodeManagers),
 * three variants on the same generated input in the same run: stock with defaults, stock tuned for
 * the fewest intermediate I/Os, and Themis. Each run's output is checked in key order and equal
 * part by part to the first variant's. Records per run: the phases' times and throughput (against
 * the disk line of physical-limits), I/Os per record from the counters (Themis's I/O audit) and
 * from /proc/diskstats, partition-size spread, write sizes, and whether the page cache was dropped
 * ({@code --drop-caches}) so the disks served the reads. Writes the phase-throughput figure and the
 * ratio table to the run's {@code figures/} ({@code ./levee publish} copies them into
 * bench/results/figures).
 */
public final class ThemisSuite implements Suite {
  @Override
  public String name() {
    return "themis";
  }

  @Override
  public String summary() {
    return "Themis vs stock and tuned stock MapReduce on the paper's workloads on a mini cluster";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.optional(
            "workloads",
            "W,W",
            "all, or some of " + String.join(", ", Workloads.all().names()),
            "all"),
        OptionSpec.optional(
            "records",
            "N",
            "100-byte records to sort (the sort workload; overrides --scale for it); the default"
                + " gives each reducer more than stock keeps in memory during its shuffle (0.7 x"
                + " 0.66 of the heap) but less than Themis's 0.6",
            "3200000"),
        OptionSpec.optional(
            "scale",
            "F",
            "multiplies every workload's default input (sized for stock jobs of 20-60 s here)",
            "1"),
        OptionSpec.optional("maps", "N", "input files, one map each", "3"),
        OptionSpec.optional("reducers", "N", "reduce tasks", "2"),
        OptionSpec.optional(
            "task-heap-mb",
            "MB",
            "every map and reduce task's -Xmx, the same for all variants; the default makes a"
                + " map's output outgrow stock's 100 MB sort buffer",
            "400"),
        OptionSpec.optional("repetitions", "N", "runs of each variant (order rotates)", "1"),
        OptionSpec.flag(
            "drop-caches",
            "drop the page cache (sync; echo 3 > /proc/sys/vm/drop_caches; needs root) before"
                + " each job and again when its last map ends, with reduce slow start 1.0 for"
                + " every variant, so the disks serve the input and the map outputs"),
        OptionSpec.optional(
            "figures",
            "DIR",
            "where the PNG and the ratio table go (default: the run directory's figures/)",
            ""),
        OptionSpec.flag("keep-data", "leave the cluster's directory under .levee/ in place"));
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    ParsedOptions o = context.options();
    List<ThemisWorkload> workloads = Workloads.all().select("workloads", o.string("workloads"));
    long sortRecords = o.longAtLeast("records", 1000);
    double scale = o.doubleIn("scale", 0, 1000, true);
    int maps = o.intIn("maps", 1, 1000);
    int reducers = o.intIn("reducers", 1, 1000);
    int heapMb = o.intIn("task-heap-mb", 128, 8192);
    int repetitions = o.intIn("repetitions", 1, 100);
    boolean dropCaches = o.flag("drop-caches");
    java.nio.file.Path root = RepoLayout.repoRoot(java.nio.file.Path.of("").toAbsolutePath());
    java.nio.file.Path figures = RunFigures.dir(context, o.string("figures"));
    java.nio.file.Path base = root.resolve(".levee/themis-bench");
    Files.createDirectories(base);
    if (dropCaches) {
      String why = PageCache.unavailableReason();
      if (why != null) {
        throw new BadArgumentException("--drop-caches: cannot drop the page cache here: " + why);
      }
      long read = PageCache.verify(base);
      context
          .err()
          .printf(
              "themis: dropping the page cache works here (a dropped 64 MB file: %.0f MB read"
                  + " from disk)%n",
              read / 1e6);
    }
    // A new run's directory holds only this run: the disk line then comes from the committed
    // physical-limits results.
    DiskBandwidth disk = DiskBandwidth.fromResults(context.store().dir());
    if (disk == null) {
      disk = DiskBandwidth.fromResults(RepoLayout.resultsDir(root));
    }
    if (disk == null) {
      context
          .err()
          .println(
              "themis: no physical-limits results in "
                  + context.store().dir()
                  + " or "
                  + RepoLayout.resultsDir(root)
                  + "; run ./levee bench physical-limits for the disk line");
    }

    int containerMb = heapMb + 160;
    Map<String, Map<ShuffleVariant, List<RunResult>>> results = new LinkedHashMap<>();
    Map<String, String> descriptions = new LinkedHashMap<>();
    try (MiniMapReduceCluster cluster =
        MiniMapReduceCluster.builder()
            .nodeManagers(2)
            .nodeManagerMemoryMb(Math.max(2048, 512 + 2 * containerMb))
            .baseDir(base)
            .start()) {
      Configuration conf = cluster.clientConf();
      conf.setInt(MRJobConfig.MAP_MEMORY_MB, containerMb);
      conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, containerMb);
      conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx" + heapMb + "m -XX:+UseParallelGC");
      conf.set(MRJobConfig.REDUCE_JAVA_OPTS, "-Xmx" + heapMb + "m -XX:+UseParallelGC");
      conf.setInt(MRJobConfig.MAP_MAX_ATTEMPTS, 1);
      conf.setInt(MRJobConfig.REDUCE_MAX_ATTEMPTS, 1);
      conf.setBoolean(MRJobConfig.MAP_SPECULATIVE, false);
      conf.setBoolean(MRJobConfig.REDUCE_SPECULATIVE, false);
      if (dropCaches) {
        // No reducer may fetch before the drop between the phases.
        conf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
      }
      FileSystem fs = cluster.fileSystem();
      for (ThemisWorkload w : workloads) {
        long records =
            !w.name().equals(SortWorkload.NAME)
                ? Math.max(1000, Math.round(w.defaultRecords() * scale))
                : o.isGiven("records")
                    ? sortRecords
                    : Math.max(1000, Math.round(sortRecords * scale));
        descriptions.put(w.name(), w.description(records));
        Path input = new Path("/bench/themis/" + w.name() + "-in");
        context
            .err()
            .printf("themis: %s: generating %,d records in %d files%n", w.name(), records, maps);
        DatasetWriter.Result data;
        try (var progress = context.progress("generate " + w.name(), records, "records")) {
          data = w.writeInput(conf, input, records, maps, progress);
        }
        // stock-tuned's io.sort.mb: a map's whole output with its metadata, within 0.6 of the heap.
        double perMapBytes = data.bytes() / (double) maps;
        int tunedSortMb =
            (int)
                Math.min(
                    heapMb * 0.6, perMapBytes * w.sortBufferBytesPerInputByte() / (1 << 20) + 8);
        Map<ShuffleVariant, List<RunResult>> byVariant = new EnumMap<>(ShuffleVariant.class);
        results.put(w.name(), byVariant);
        ShuffleVariant[] order = ShuffleVariant.values();
        OutputDigest reference = null;
        for (int rep = 0; rep < repetitions; rep++) {
          for (int i = 0; i < order.length; i++) {
            ShuffleVariant v = order[(i + rep) % order.length];
            Path out = new Path("/bench/themis/" + w.name() + "-out-" + v.label);
            fs.delete(out, true);
            Job job = w.createJob(v.apply(conf, tunedSortMb), input, out, reducers);
            context.err().printf("themis: %s %s run %d ...%n", w.name(), v.label, rep + 1);
            if (dropCaches) {
              PageCache.drop(); // the input comes from disk; the sync's writes are not the job's
            }
            DiskCounters before = DiskCounters.now();
            CacheDroppingRun.Report drops = null;
            if (dropCaches) {
              drops = CacheDroppingRun.run(job);
            } else {
              job.waitForCompletion(false);
            }
            if (!job.isSuccessful()) {
              throw new IllegalStateException(
                  "themis: the "
                      + v.label
                      + " "
                      + w.name()
                      + " job failed: "
                      + job.getStatus().getFailureInfo());
            }
            DiskCounters disks = DiskCounters.now().minus(before);
            if (drops != null) {
              disks = disks.lessRead(drops.drops().codeBytesRead());
            }
            reference = check(w, v, OutputDigest.of(fs, out), data.records(), reference);
            RunResult r = RunResult.of(job, JobPhases.of(job), disks, data.bytes(), disk, drops);
            byVariant.computeIfAbsent(v, k -> new ArrayList<>()).add(r);
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("workload", w.name());
            params.put("records", records);
            params.put("input_bytes", data.bytes());
            params.put("maps", maps);
            params.put("reducers", reducers);
            params.put("task_heap_mb", heapMb);
            params.put("caches_dropped", dropCaches);
            context.record(v.label, params, r.metrics(), rep);
            context.err().printf("themis: %s %s %s%n", w.name(), v.label, r.line());
            fs.delete(out, true);
          }
        }
        fs.delete(input, true);
      }
    } finally {
      if (!o.flag("keep-data")) {
        org.apache.hadoop.fs.FileUtil.fullyDelete(base.toFile());
      }
    }
    Files.createDirectories(figures);
    String table = RatioTable.markdown(results, descriptions, disk, dropCaches);
    context.out().println(table);
    Files.writeString(figures.resolve("themis-ratios.md"), table);
    java.nio.file.Path png =
        PhaseChart.write(results, disk, dropCaches, figures.resolve("themis-phase-throughput.png"));
    context.out().println("themis: figure " + png);
  }

  /** Fails unless the output is in key order, complete, and equal to the first variant's. */
  private static OutputDigest check(
      ThemisWorkload w,
      ShuffleVariant v,
      OutputDigest digest,
      long inputRecords,
      OutputDigest reference) {
    String who = "themis: " + v.label + " " + w.name();
    if (!digest.sorted()) {
      throw new IllegalStateException(
          who + "'s output is not in key order: " + digest.firstUnsorted());
    }
    long expected = w.expectedOutputRecords(inputRecords);
    if (expected >= 0 && digest.records() != expected) {
      throw new IllegalStateException(
          who + " wrote " + digest.records() + " records, expected " + expected);
    }
    if (reference != null && !reference.sameAs(digest)) {
      throw new IllegalStateException(
          who
              + "'s output differs from the first run's: "
              + digest.parts()
              + " vs "
              + reference.parts());
    }
    return reference == null ? digest : reference;
  }

  /** One finished run's figures. */
  record RunResult(
      JobPhases phases,
      IoAudit.Report audit,
      DiskCounters disks,
      long inputBytes,
      double partitionSpread,
      double themisMeanWriteBytes,
      DiskBandwidth disk,
      CacheDroppingRun.Report drops) {

    static RunResult of(
        Job job,
        JobPhases phases,
        DiskCounters disks,
        long inputBytes,
        DiskBandwidth disk,
        CacheDroppingRun.Report drops)
        throws Exception {
      long largest = 0;
      long sum = 0;
      int n = 0;
      for (TaskReport t : job.getTaskReports(TaskType.REDUCE)) {
        long b = t.getTaskCounters().findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue();
        largest = Math.max(largest, b);
        sum += b;
        n++;
      }
      Counters c = job.getCounters();
      long writes = c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_WRITES).getValue();
      long writeBytes =
          c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_WRITE_BYTES).getValue();
      return new RunResult(
          phases,
          IoAudit.of(job),
          disks,
          inputBytes,
          sum == 0 ? 0 : largest / (sum / (double) n),
          writes == 0 ? 0 : writeBytes / (double) writes,
          disk,
          drops);
    }

    /** Input MB processed per second of phase 1, the paper's Fig. 9 measure. */
    double phase1MbPerS() {
      return inputBytes / 1e6 / phases.mapSeconds();
    }

    double phase2MbPerS() {
      return inputBytes / 1e6 / phases.reduceSeconds();
    }

    /**
     * Seconds the disk needs for phase 1's bytes at full speed: read the input, write the
     * intermediate data once. For a sort both are the input, so this is the sort's disk line.
     */
    double phase1DiskSeconds() {
      return inputBytes / 1e6 / disk.readMbPerS()
          + audit.intermediateBytes() / 1e6 / disk.writeMbPerS();
    }

    /** Phase 2: read the intermediate data once, write the output. */
    double phase2DiskSeconds() {
      return audit.intermediateBytes() / 1e6 / disk.readMbPerS()
          + audit.outputBytes() / 1e6 / disk.writeMbPerS();
    }

    Map<String, Double> metrics() {
      Map<String, Double> m = new LinkedHashMap<>();
      m.put("seconds", phases.jobSeconds());
      m.put("phase1_seconds", phases.mapSeconds());
      m.put("phase2_seconds", phases.reduceSeconds());
      m.put("phase1_mb_per_s", phase1MbPerS());
      m.put("phase2_mb_per_s", phase2MbPerS());
      if (disk != null) {
        m.put("phase1_disk_fraction", phase1DiskSeconds() / phases.mapSeconds());
        m.put("phase2_disk_fraction", phase2DiskSeconds() / phases.reduceSeconds());
      }
      m.put("reads_per_record", audit.readsPerRecord());
      m.put("writes_per_record", audit.writesPerRecord());
      m.put("intermediate_writes", audit.intermediateWrites());
      m.put("intermediate_reads", audit.intermediateReads());
      m.put("intermediate_bytes", (double) audit.intermediateBytes());
      m.put("output_bytes", (double) audit.outputBytes());
      m.put("two_io", audit.twoIo() ? 1.0 : 0.0);
      if (disks.known()) {
        m.put("disk_bytes_written", (double) disks.bytesWritten());
        m.put("disk_bytes_read", (double) disks.bytesRead());
        m.put(
            "disk_mean_write_bytes",
            disks.writes() == 0 ? 0 : disks.bytesWritten() / (double) disks.writes());
      }
      m.put("partition_spread_max_over_mean", partitionSpread);
      if (themisMeanWriteBytes > 0) {
        m.put("themis_mean_write_bytes", themisMeanWriteBytes);
      }
      m.put("caches_dropped", drops == null ? 0.0 : 1.0);
      if (drops != null) {
        m.put("cache_drop_seconds", drops.seconds());
        m.put("cache_drop_code_bytes_reread", (double) drops.drops().codeBytesRead());
        m.put("cache_dropped_before_reduces", drops.beforeReduces() ? 1.0 : 0.0);
      }
      return m;
    }

    String line() {
      return String.format(
          java.util.Locale.ROOT,
          "%.1f s (phase 1 %.1f s, phase 2 %.1f s); %s; disks: %.0f MB written, %.0f MB read%s",
          phases.jobSeconds(),
          phases.mapSeconds(),
          phases.reduceSeconds(),
          audit.summary(),
          disks.bytesWritten() / 1e6,
          disks.bytesRead() / 1e6,
          drops == null
              ? ""
              : String.format(
                  java.util.Locale.ROOT,
                  "; caches dropped (%.1f s; %.0f MB of code read back in, not counted)%s",
                  drops.seconds(),
                  drops.drops().codeBytesRead() / 1e6,
                  drops.beforeReduces() ? "" : ", the mid-job drop came after a reducer started"));
    }
  }
}
