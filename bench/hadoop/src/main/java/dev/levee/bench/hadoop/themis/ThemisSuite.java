package dev.levee.bench.hadoop.themis;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.disk.BusySampler;
import dev.levee.bench.disk.DiskPlace;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.results.RepoLayout;
import dev.levee.bench.results.RunFigures;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.themis.IoAudit;
import dev.levee.themis.ThemisCounters;
import dev.levee.themis.plan.PlanReport;
import dev.levee.themis.plan.ThemisPlanner;
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
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;

/**
 * {@code ./levee bench themis}: the paper's workloads (Sort, Pareto-sized records, WordCount,
 * 5-grams, a PageRank iteration, Click-Sessions) on HDFS + YARN in this JVM (two NodeManagers),
 * several variants on the same generated input in the same run: stock with defaults, stock tuned
 * for the fewest intermediate I/Os, and Themis, and on request ({@code --variants}) Themis with its
 * phase 0 choosing the reducer count and tuned stock at that count. Each run's output is checked in
 * key order and equal to the first variant's (part by part when both partition alike). Records per
 * run: the phases' times and throughput (against the disk line of physical-limits), I/Os per record
 * from the counters (Themis's I/O audit) and from /proc/diskstats, partition-size spread, write
 * sizes, the reducer count, whether the page cache was dropped ({@code --drop-caches}) so the disks
 * served the reads, and the memory cgroup's limit and use when the suite runs in one
 * (bench/memory-cgroup.sh). Writes the phase-throughput figure and the ratio table to the run's
 * {@code figures/} ({@code ./levee publish} copies them into bench/results/figures).
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
  public Object newOptions() {
    return new ThemisRunSettings.Options();
  }

  @Override
  public void run(SuiteContext context) throws Exception {
    ThemisRunSettings.Options o = context.options(ThemisRunSettings.Options.class);
    ThemisRunSettings settings = ThemisRunSettings.from(o);
    boolean dropCaches = o.dropCaches;
    java.nio.file.Path root = RepoLayout.repoRoot(java.nio.file.Path.of("").toAbsolutePath());
    java.nio.file.Path figures = RunFigures.dir(context, o.figures);
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
    MemoryCgroup memory = MemoryCgroup.ofThisProcess();
    context
        .err()
        .println(
            memory == null
                ? "themis: no memory cgroup limit (bench/memory-cgroup.sh sets one): the page cache"
                    + " may hold everything the jobs write"
                : String.format(
                    java.util.Locale.ROOT,
                    "themis: in memory cgroup %s, limit %.2f GB (the cluster, its task JVMs and"
                        + " the page cache of what they write)",
                    memory.dir(),
                    memory.limitBytes() / 1e9));
    Map<String, Map<ShuffleVariant, List<RunResult>>> results = new LinkedHashMap<>();
    Map<String, String> descriptions = new LinkedHashMap<>();
    DiskBandwidth disk;
    boolean emulated;
    // On --disk emulated the whole cluster (HDFS and the NodeManagers' local dirs) lives on one
    // emulated spindle, as a ThemisMR node's input, intermediate and output data shared its disks.
    try (DiskPlace place = o.disk.open(base, context.err())) {
      disk = diskLine(context, root, place);
      emulated = place.isEmulated();
      runWorkloads(context, settings, place, disk, memory, results, descriptions, dropCaches);
    } finally {
      if (!o.keepData) {
        org.apache.hadoop.fs.FileUtil.fullyDelete(base.toFile());
      }
    }
    Files.createDirectories(figures);
    String table = RatioTable.markdown(results, descriptions, disk, dropCaches, memory);
    context.out().println(table);
    // One file per regime: publishing an emulated-disk run must not replace the real disk's table.
    Files.writeString(
        figures.resolve(emulated ? "themis-ratios-emulated.md" : "themis-ratios.md"), table);
    // The phase chart is a report figure (ThemisPhaseFigure), drawn from the result lines.
    context.out().println("themis: figure: ./levee report --run <this run's id> draws it");
  }

  /**
   * The disk the phases are measured against: the emulated disk's measured rate, or this machine's
   * disk from physical-limits (a new run's directory holds only this run, so the line comes from
   * the committed results then).
   */
  private static DiskBandwidth diskLine(
      SuiteContext context, java.nio.file.Path root, DiskPlace place) throws java.io.IOException {
    if (place.model().isPresent()) {
      DiskBandwidth d = DiskBandwidth.emulated(RepoLayout.resultsDir(root), place.model().get());
      context
          .err()
          .printf(
              java.util.Locale.ROOT,
              "themis: the disk line: %.0f MB/s read, %.0f MB/s write (%s)%n",
              d.readMbPerS(),
              d.writeMbPerS(),
              d.source());
      return d;
    }
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
    return disk;
  }

  /** Every workload, every variant, every repetition on one cluster in {@code place}. */
  private static void runWorkloads(
      SuiteContext context,
      ThemisRunSettings settings,
      DiskPlace place,
      DiskBandwidth disk,
      MemoryCgroup memory,
      Map<String, Map<ShuffleVariant, List<RunResult>>> results,
      Map<String, String> descriptions,
      boolean dropCaches)
      throws Exception {
    List<ThemisWorkload> workloads = settings.workloads();
    int maps = settings.maps();
    int reducers = settings.reducers();
    List<ShuffleVariant> variants = settings.variants();
    int heapMb = settings.heapMb();
    int reduceHeapMb = settings.reduceHeapMb();
    int nodeMemoryMb = settings.nodeMemoryMb();
    int repetitions = settings.repetitions();
    String taskJavaOpts = settings.taskJavaOpts();
    try (MiniMapReduceCluster cluster =
        MiniMapReduceCluster.builder()
            .nodeManagers(2)
            .nodeManagerMemoryMb(nodeMemoryMb)
            .baseDir(place.dir())
            .start()) {
      Configuration conf = cluster.clientConf();
      conf.setInt(MRJobConfig.MAP_MEMORY_MB, settings.mapContainerMb());
      conf.setInt(MRJobConfig.REDUCE_MEMORY_MB, settings.reduceContainerMb());
      conf.set(MRJobConfig.MAP_JAVA_OPTS, "-Xmx" + heapMb + "m -XX:+UseParallelGC " + taskJavaOpts);
      conf.set(
          MRJobConfig.REDUCE_JAVA_OPTS,
          "-Xmx" + reduceHeapMb + "m -XX:+UseParallelGC " + taskJavaOpts);
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
        long records = settings.recordsOf(w);
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
        int tunedSortMb = tunedSortMb(w, perMapBytes, heapMb);
        // What phase 0 chooses, for stock-tuned-planned; themis-planned runs phase 0 again in its
        // own time.
        PlanReport plan = null;
        int plannedSortMb = tunedSortMb;
        if (variants.stream().anyMatch(v -> v.planned)) {
          Job probe =
              w.createJob(
                  ShuffleVariant.THEMIS.apply(conf, tunedSortMb),
                  input,
                  new Path("/bench/themis/" + w.name() + "-plan-probe"),
                  reducers);
          plan = ThemisPlanner.plan(probe.getConfiguration());
          context.err().printf("themis: %s: %s", w.name(), plan.describe());
          if (plan.splitMaxSize() > 0) {
            plannedSortMb = tunedSortMb(w, Math.min(perMapBytes, plan.splitMaxSize()), heapMb);
          }
        }
        Map<ShuffleVariant, List<RunResult>> byVariant = new EnumMap<>(ShuffleVariant.class);
        results.put(w.name(), byVariant);
        OutputDigest reference = null;
        ShuffleVariant referenceVariant = null;
        for (int rep = 0; rep < repetitions; rep++) {
          for (int i = 0; i < variants.size(); i++) {
            ShuffleVariant v = variants.get((i + rep) % variants.size());
            Path out = new Path("/bench/themis/" + w.name() + "-out-" + v.label);
            fs.delete(out, true);
            Configuration variantConf =
                v.apply(
                    conf, v == ShuffleVariant.STOCK_TUNED_PLANNED ? plannedSortMb : tunedSortMb);
            if (v == ShuffleVariant.STOCK_TUNED_PLANNED && plan.splitMaxSize() > 0) {
              variantConf.setLong(FileInputFormat.SPLIT_MAXSIZE, plan.splitMaxSize());
            }
            Job job =
                w.createJob(
                    variantConf,
                    input,
                    out,
                    v == ShuffleVariant.STOCK_TUNED_PLANNED ? plan.reducers() : reducers);
            context.err().printf("themis: %s %s run %d ...%n", w.name(), v.label, rep + 1);
            if (dropCaches) {
              PageCache.drop(); // the input comes from disk; the sync's writes are not the job's
            }
            if (memory != null) {
              memory.resetPeak();
            }
            DiskCounters before = DiskCounters.now();
            CpuSampler cpu = CpuSampler.start();
            BusySampler emulated = BusySampler.start(place);
            double phase0Seconds = 0;
            if (v == ShuffleVariant.THEMIS_PLANNED) {
              long start = System.nanoTime();
              PlanReport used =
                  ThemisPlanner.apply(job, new Path("/bench/themis/" + w.name() + ".plan"));
              phase0Seconds = (System.nanoTime() - start) / 1e9;
              context
                  .err()
                  .printf(
                      "themis: %s %s: phase 0 took %.1f s: %d reducers%n",
                      w.name(), v.label, phase0Seconds, used.reducers());
            }
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
            cpu.close();
            if (emulated != null) {
              emulated.close();
            }
            JobPhases phases = JobPhases.of(job);
            EmulatedUse emulatedUse = EmulatedUse.of(emulated, phases);
            if (drops != null) {
              disks = disks.lessRead(drops.drops().codeBytesRead());
            }
            CgroupUse cgroup =
                memory == null
                    ? null
                    : new CgroupUse(memory.peakBytes(), memory.cacheBytes(), memory.rssBytes());
            OutputDigest digest = OutputDigest.of(fs, out);
            check(w, v, digest, data.records(), reference, referenceVariant);
            if (reference == null) {
              reference = digest;
              referenceVariant = v;
            }
            RunResult r =
                RunResult.of(
                    job,
                    phases,
                    cpu.between(phases.mapStartMillis(), phases.mapEndMillis()),
                    cpu.between(phases.mapEndMillis(), phases.reduceEndMillis()),
                    phase0Seconds,
                    disks,
                    data.bytes(),
                    disk,
                    drops,
                    cgroup,
                    data.records(),
                    emulatedUse);
            byVariant.computeIfAbsent(v, k -> new ArrayList<>()).add(r);
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("workload", w.name());
            params.put("records", records);
            params.put("input_bytes", data.bytes());
            params.put("maps", maps);
            params.put("reducers", job.getNumReduceTasks());
            params.put("task_heap_mb", heapMb);
            params.put("map_buffer_mb", ShuffleVariant.mapBufferMb(v, variantConf, heapMb));
            params.put("reduce_heap_mb", reduceHeapMb);
            params.put("node_memory_mb", nodeMemoryMb);
            params.put("memory_limit_bytes", memory == null ? 0 : memory.limitBytes());
            params.put("caches_dropped", dropCaches);
            if (!taskJavaOpts.isEmpty()) {
              params.put("task_java_opts", taskJavaOpts);
            }
            params.putAll(place.params());
            context.record(v.label, params, r.metrics(), rep);
            context.err().printf("themis: %s %s %s%n", w.name(), v.label, r.line());
            fs.delete(out, true);
          }
        }
        fs.delete(input, true);
      }
    }
  }

  /** io.sort.mb for a map's whole output with its metadata, within 0.6 of the heap. */
  private static int tunedSortMb(ThemisWorkload w, double perMapBytes, int heapMb) {
    return (int)
        Math.min(heapMb * 0.6, perMapBytes * w.sortBufferBytesPerInputByte() / (1 << 20) + 8);
  }

  /**
   * Fails unless the output is in key order, complete, and equal to the first variant's: part by
   * part when both partition with the job's own partitioner at the same reducer count, else the
   * same lines overall.
   */
  private static void check(
      ThemisWorkload w,
      ShuffleVariant v,
      OutputDigest digest,
      long inputRecords,
      OutputDigest reference,
      ShuffleVariant referenceVariant) {
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
    if (reference == null) {
      return;
    }
    boolean partByPart = !v.planned && !referenceVariant.planned;
    if (partByPart ? !reference.sameAs(digest) : !reference.sameRecordsAs(digest)) {
      throw new IllegalStateException(
          who
              + "'s output differs from "
              + referenceVariant.label
              + "'s first run's"
              + (partByPart ? "" : " (all parts together)")
              + ": "
              + digest.parts()
              + " vs "
              + reference.parts());
    }
  }

  /**
   * The memory cgroup during one job: its peak use (processes and page cache), and the page cache
   * and process memory charged to it when the job ended.
   */
  record CgroupUse(long peakBytes, long cacheBytesAtEnd, long rssBytesAtEnd) {}

  /** One finished run's figures. */
  record RunResult(
      JobPhases phases,
      CpuSampler.Share phase1Cpu,
      CpuSampler.Share phase2Cpu,
      double phase0Seconds,
      int reducers,
      long mapsRun,
      IoAudit.Report audit,
      DiskCounters disks,
      long inputBytes,
      double partitionSpread,
      double themisMeanWriteBytes,
      DiskBandwidth disk,
      CacheDroppingRun.Report drops,
      CgroupUse cgroup,
      long records,
      long mapCpuMillis,
      long reduceCpuMillis,
      EmulatedUse emulated) {

    static RunResult of(
        Job job,
        JobPhases phases,
        CpuSampler.Share phase1Cpu,
        CpuSampler.Share phase2Cpu,
        double phase0Seconds,
        DiskCounters disks,
        long inputBytes,
        DiskBandwidth disk,
        CacheDroppingRun.Report drops,
        CgroupUse cgroup,
        long records,
        EmulatedUse emulated)
        throws Exception {
      long largest = 0;
      long sum = 0;
      int n = 0;
      long reduceCpu = 0;
      for (TaskReport t : job.getTaskReports(TaskType.REDUCE)) {
        long b = t.getTaskCounters().findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue();
        largest = Math.max(largest, b);
        sum += b;
        n++;
        reduceCpu += t.getTaskCounters().findCounter(TaskCounter.CPU_MILLISECONDS).getValue();
      }
      long mapCpu = 0;
      for (TaskReport t : job.getTaskReports(TaskType.MAP)) {
        mapCpu += t.getTaskCounters().findCounter(TaskCounter.CPU_MILLISECONDS).getValue();
      }
      Counters c = job.getCounters();
      long writes = c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_WRITES).getValue();
      long writeBytes =
          c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_WRITE_BYTES).getValue();
      return new RunResult(
          phases,
          phase1Cpu,
          phase2Cpu,
          phase0Seconds,
          job.getNumReduceTasks(),
          c.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue(),
          IoAudit.of(job),
          disks,
          inputBytes,
          sum == 0 ? 0 : largest / (sum / (double) n),
          writes == 0 ? 0 : writeBytes / (double) writes,
          disk,
          drops,
          cgroup,
          records,
          mapCpu,
          reduceCpu,
          emulated);
    }

    /**
     * CPU time the job's tasks spent per input record, in microseconds, from Hadoop's own
     * CPU_MILLISECONDS counters (the tasks' JVMs only: not the AM, HDFS or YARN's daemons).
     */
    double cpuMicrosPerRecord() {
      return (mapCpuMillis + reduceCpuMillis) * 1000.0 / records;
    }

    /** The job's time, plus phase 0's when it ran before the job (themis-planned). */
    double seconds() {
      return phases.jobSeconds() + phase0Seconds;
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
      m.put("seconds", seconds());
      if (phase0Seconds > 0) {
        m.put("phase0_seconds", phase0Seconds);
      }
      m.put("maps_run", (double) mapsRun);
      m.put("phase1_seconds", phases.mapSeconds());
      m.put("phase2_seconds", phases.reduceSeconds());
      m.put("phase1_mb_per_s", phase1MbPerS());
      m.put("phase2_mb_per_s", phase2MbPerS());
      if (disk != null) {
        m.put("phase1_disk_fraction", phase1DiskSeconds() / phases.mapSeconds());
        m.put("phase2_disk_fraction", phase2DiskSeconds() / phases.reduceSeconds());
      }
      // What bounds a phase that runs far below the disk: all cores busy, or waiting on I/O.
      if (!Double.isNaN(phase1Cpu.busy())) {
        m.put("phase1_cpu_busy", phase1Cpu.busy());
        m.put("phase1_cpu_iowait", phase1Cpu.iowait());
      }
      if (!Double.isNaN(phase2Cpu.busy())) {
        m.put("phase2_cpu_busy", phase2Cpu.busy());
        m.put("phase2_cpu_iowait", phase2Cpu.iowait());
      }
      m.put("map_cpu_ms", (double) mapCpuMillis);
      m.put("reduce_cpu_ms", (double) reduceCpuMillis);
      m.put("cpu_us_per_record", cpuMicrosPerRecord());
      if (emulated != null) {
        emulated.addTo(m);
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
      if (cgroup != null) {
        m.put("cgroup_peak_bytes", (double) cgroup.peakBytes());
        m.put("cgroup_cache_bytes_at_end", (double) cgroup.cacheBytesAtEnd());
        m.put("cgroup_rss_bytes_at_end", (double) cgroup.rssBytesAtEnd());
      }
      return m;
    }

    String line() {
      return String.format(
          java.util.Locale.ROOT,
          "%.1f s (%sphase 1 %.1f s, phase 2 %.1f s; %d maps, %d reducers); %s; CPU %.2f us per"
              + " record; disks: %.0f MB written, %.0f MB read%s%s%s",
          seconds(),
          phase0Seconds > 0
              ? String.format(java.util.Locale.ROOT, "phase 0 %.1f s, ", phase0Seconds)
              : "",
          phases.mapSeconds(),
          phases.reduceSeconds(),
          mapsRun,
          reducers,
          audit.summary(),
          cpuMicrosPerRecord(),
          disks.bytesWritten() / 1e6,
          disks.bytesRead() / 1e6,
          emulated == null || Double.isNaN(emulated.phase1().busy())
              ? ""
              : String.format(
                  java.util.Locale.ROOT,
                  "; emulated disk busy %.0f %% in phase 1, %.0f %% in phase 2",
                  100 * emulated.phase1().busy(),
                  100 * emulated.phase2().busy()),
          drops == null
              ? ""
              : String.format(
                  java.util.Locale.ROOT,
                  "; caches dropped (%.1f s; %.0f MB of code read back in, not counted)%s",
                  drops.seconds(),
                  drops.drops().codeBytesRead() / 1e6,
                  drops.beforeReduces() ? "" : ", the mid-job drop came after a reducer started"),
          cgroup == null
              ? ""
              : String.format(
                  java.util.Locale.ROOT,
                  "; cgroup peak %.2f GB, at the end %.2f GB page cache and %.2f GB processes",
                  cgroup.peakBytes() / 1e9,
                  cgroup.cacheBytesAtEnd() / 1e9,
                  cgroup.rssBytesAtEnd() / 1e9));
    }
  }
}
