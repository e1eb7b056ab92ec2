package dev.levee.bench.hadoop.themis;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.gen.TeraSortDataset;
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
 * {@code ./levee bench themis}: the paper's Sort on HDFS + YARN in this JVM (two NodeManagers),
 * three variants on the same generated input in the same run: stock with defaults, stock tuned for
 * the fewest intermediate I/Os, and Themis. Each run's output is checked sorted and equal part by
 * part to the first variant's. Records per run: the phases' times and throughput (against the disk
 * line of physical-limits), I/Os per record from the counters (Themis's I/O audit) and from
 * /proc/diskstats, partition-size spread, and write sizes. Writes the phase-throughput figure and
 * the ratio table to the run's {@code figures/} ({@code ./levee publish} copies them into
 * bench/results/figures).
 */
public final class ThemisSuite implements Suite {
  @Override
  public String name() {
    return "themis";
  }

  @Override
  public String summary() {
    return "Themis vs stock and tuned stock MapReduce on Sort (100-byte records) on a mini cluster";
  }

  @Override
  public List<OptionSpec> options() {
    return List.of(
        OptionSpec.optional(
            "records",
            "N",
            "100-byte records to sort; the default gives each reducer more than stock keeps in"
                + " memory during its shuffle (0.7 x 0.66 of the heap) but less than Themis's 0.6",
            "3200000"),
        OptionSpec.optional("maps", "N", "input files, one map each", "3"),
        OptionSpec.optional("reducers", "N", "reduce tasks (hash partitioned)", "2"),
        OptionSpec.optional(
            "task-heap-mb",
            "MB",
            "every map and reduce task's -Xmx, the same for all variants; the default makes a"
                + " map's output outgrow stock's 100 MB sort buffer",
            "400"),
        OptionSpec.optional("repetitions", "N", "runs of each variant (order rotates)", "1"),
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
    long records = o.longAtLeast("records", 1000);
    int maps = o.intIn("maps", 1, 1000);
    int reducers = o.intIn("reducers", 1, 1000);
    int heapMb = o.intIn("task-heap-mb", 128, 8192);
    int repetitions = o.intIn("repetitions", 1, 100);
    java.nio.file.Path root = RepoLayout.repoRoot(java.nio.file.Path.of("").toAbsolutePath());
    java.nio.file.Path figures = RunFigures.dir(context, o.string("figures"));
    java.nio.file.Path base = root.resolve(".levee/themis-bench");
    Files.createDirectories(base);
    DiskBandwidth disk = DiskBandwidth.fromResults(context.store().dir());
    if (disk == null) {
      context
          .err()
          .println(
              "themis: no physical-limits results in "
                  + context.store().dir()
                  + "; run ./levee bench physical-limits for the disk line");
    }

    int containerMb = heapMb + 160;
    Map<ShuffleVariant, List<RunResult>> results = new EnumMap<>(ShuffleVariant.class);
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
      FileSystem fs = cluster.fileSystem();
      Path input = new Path("/bench/themis/sort-in");
      context.err().printf("themis: generating %,d TeraSort records in %d files%n", records, maps);
      DatasetWriter.Result data;
      try (var progress = context.progress("generate", records, "records")) {
        data = SortWorkload.generate(conf, input, records, maps, 11, progress);
      }
      // A map's framed output (key and value with their lengths, plus the IFile framing) and the
      // sort buffer's 16 bytes of metadata per record, for the tuned variant's io.sort.mb.
      long perMapRecords = (records + maps - 1) / maps;
      int tunedSortMb =
          (int)
              Math.min(
                  heapMb * 0.6,
                  (perMapRecords * (TeraSortDataset.RECORD_BYTES + 6 + 16)) / (1 << 20) + 8);

      ShuffleVariant[] order = ShuffleVariant.values();
      SortWorkload.Digest reference = null;
      for (int rep = 0; rep < repetitions; rep++) {
        for (int i = 0; i < order.length; i++) {
          ShuffleVariant v = order[(i + rep) % order.length];
          Path out = new Path("/bench/themis/sort-out-" + v.label);
          fs.delete(out, true);
          Job job = SortWorkload.job(v.apply(conf, tunedSortMb), input, out, reducers);
          context.err().printf("themis: %s run %d ...%n", v.label, rep + 1);
          DiskCounters before = DiskCounters.now();
          if (!job.waitForCompletion(false)) {
            throw new IllegalStateException(
                "themis: the " + v.label + " sort failed: " + job.getStatus().getFailureInfo());
          }
          DiskCounters disks = DiskCounters.now().minus(before);
          SortWorkload.Digest digest = SortWorkload.digest(fs, out);
          if (!digest.sorted()) {
            throw new IllegalStateException(
                "themis: " + v.label + "'s output is not sorted: " + digest.firstUnsorted());
          }
          if (digest.records() != data.records()) {
            throw new IllegalStateException(
                "themis: " + v.label + " wrote " + digest.records() + " of " + data.records());
          }
          if (reference == null) {
            reference = digest;
          } else if (!reference.sameAs(digest)) {
            throw new IllegalStateException(
                "themis: "
                    + v.label
                    + "'s output differs from the first run's: "
                    + digest.parts()
                    + " vs "
                    + reference.parts());
          }
          RunResult r = RunResult.of(job, JobPhases.of(job), disks, data.bytes(), disk);
          results.computeIfAbsent(v, k -> new ArrayList<>()).add(r);
          Map<String, Object> params = new LinkedHashMap<>();
          params.put("workload", SortWorkload.NAME);
          params.put("records", records);
          params.put("input_bytes", data.bytes());
          params.put("maps", maps);
          params.put("reducers", reducers);
          params.put("task_heap_mb", heapMb);
          context.record(v.label, params, r.metrics(), rep);
          context.err().printf("themis: %s %s%n", v.label, r.line());
          fs.delete(out, true);
        }
      }
      fs.delete(input, true);
    } finally {
      if (!o.flag("keep-data")) {
        org.apache.hadoop.fs.FileUtil.fullyDelete(base.toFile());
      }
    }
    Files.createDirectories(figures);
    String table = RatioTable.markdown(results, records * TeraSortDataset.RECORD_BYTES, disk);
    context.out().println(table);
    Files.writeString(figures.resolve("themis-ratios.md"), table);
    java.nio.file.Path png =
        PhaseChart.write(results, disk, records, figures.resolve("themis-phase-throughput.png"));
    context.out().println("themis: figure " + png);
  }

  /** One finished run's figures. */
  record RunResult(
      JobPhases phases,
      IoAudit.Report audit,
      DiskCounters disks,
      long inputBytes,
      double partitionSpread,
      double themisMeanWriteBytes,
      DiskBandwidth disk) {

    static RunResult of(
        Job job, JobPhases phases, DiskCounters disks, long inputBytes, DiskBandwidth disk)
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
          disk);
    }

    double phase1MbPerS() {
      return inputBytes / 1e6 / phases.mapSeconds();
    }

    double phase2MbPerS() {
      return inputBytes / 1e6 / phases.reduceSeconds();
    }

    Map<String, Double> metrics() {
      Map<String, Double> m = new LinkedHashMap<>();
      m.put("seconds", phases.jobSeconds());
      m.put("phase1_seconds", phases.mapSeconds());
      m.put("phase2_seconds", phases.reduceSeconds());
      m.put("phase1_mb_per_s", phase1MbPerS());
      m.put("phase2_mb_per_s", phase2MbPerS());
      if (disk != null) {
        m.put("phase1_disk_fraction", phase1MbPerS() / disk.phaseBound());
        m.put("phase2_disk_fraction", phase2MbPerS() / disk.phaseBound());
      }
      m.put("reads_per_record", audit.readsPerRecord());
      m.put("writes_per_record", audit.writesPerRecord());
      m.put("intermediate_writes", audit.intermediateWrites());
      m.put("intermediate_reads", audit.intermediateReads());
      m.put("intermediate_bytes", (double) audit.intermediateBytes());
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
      return m;
    }

    String line() {
      return String.format(
          java.util.Locale.ROOT,
          "%.1f s (phase 1 %.1f s, phase 2 %.1f s); %s; disks: %.0f MB written, %.0f MB read",
          phases.jobSeconds(),
          phases.mapSeconds(),
          phases.reduceSeconds(),
          audit.summary(),
          disks.bytesWritten() / 1e6,
          disks.bytesRead() / 1e6);
    }
  }
}
