package dev.levee.bench.hadoop.themis;

import dev.levee.bench.report.Summary;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The run's results as the paper's Tab. 4 puts them: per variant the median job time, Themis's
 * speed-up over it, and the I/Os per record from the counters and from the disks.
 */
final class RatioTable {
  private RatioTable() {}

  static String markdown(
      Map<ShuffleVariant, List<ThemisSuite.RunResult>> results,
      long sortedBytes,
      DiskBandwidth disk) {
    List<ThemisSuite.RunResult> themis = results.get(ShuffleVariant.THEMIS);
    double themisSeconds = median(themis, r -> r.phases().jobSeconds());
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "Sort of %.0f MB (100-byte records)%s%n%n",
            sortedBytes / 1e6,
            disk == null
                ? ""
                : String.format(
                    Locale.ROOT,
                    "; disk %.0f MB/s read, %.0f MB/s write (physical-limits), so a phase that"
                        + " reads and writes each byte once is bound at %.0f MB/s",
                    disk.readMbPerS(),
                    disk.writeMbPerS(),
                    disk.phaseBound())));
    s.append(
        "| variant | runs | job s (median) | Themis speed-up | phase 1 s | phase 2 s |"
            + " reads/record | writes/record | disk MB written / MB sorted |"
            + " disk MB read / MB sorted | mean disk write (KiB) | largest/mean partition |\n");
    s.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (ShuffleVariant v : ShuffleVariant.values()) {
      List<ThemisSuite.RunResult> runs = results.get(v);
      if (runs == null || runs.isEmpty()) {
        continue;
      }
      double seconds = median(runs, r -> r.phases().jobSeconds());
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.1f | %.2fx | %.1f | %.1f | %.2f | %.2f | %.2f | %.2f | %.0f | %.2f |%n",
              v.label,
              runs.size(),
              seconds,
              themis == null ? Double.NaN : seconds / themisSeconds,
              median(runs, r -> r.phases().mapSeconds()),
              median(runs, r -> r.phases().reduceSeconds()),
              median(runs, r -> r.audit().readsPerRecord()),
              median(runs, r -> r.audit().writesPerRecord()),
              median(runs, r -> r.disks().bytesWritten() / (double) sortedBytes),
              median(runs, r -> r.disks().bytesRead() / (double) sortedBytes),
              median(
                  runs,
                  r ->
                      r.disks().writes() == 0
                          ? 0
                          : r.disks().bytesWritten() / (double) r.disks().writes() / 1024),
              median(runs, ThemisSuite.RunResult::partitionSpread)));
    }
    s.append(
        "\nreads/record and writes/record are the paper's measure from the job's counters (input"
            + " and intermediate reads; intermediate and output writes; 2.0 and 2.0 is 2-IO). The"
            + " disk columns are /proc/diskstats over the whole job, so they include HDFS input,"
            + " output and its replica, and miss what stayed in the page cache.\n");
    return s.toString();
  }

  static double median(
      List<ThemisSuite.RunResult> runs, ToDoubleFunction<ThemisSuite.RunResult> metric) {
    if (runs == null || runs.isEmpty()) {
      return Double.NaN;
    }
    return Summary.of(runs.stream().map(r -> metric.applyAsDouble(r)).toList()).median();
  }
}
