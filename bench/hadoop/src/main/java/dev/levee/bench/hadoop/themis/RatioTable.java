package dev.levee.bench.hadoop.themis;

import dev.levee.bench.report.Summary;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The run's results as the paper's Tab. 4 puts them: first one line per workload (each variant's
 * median job time, Themis's speed-up over stock-default and stock-tuned, I/Os per record), then per
 * workload the detail of every variant: phases, disk traffic, write size, partition spread.
 */
final class RatioTable {
  private RatioTable() {}

  static String markdown(
      Map<String, Map<ShuffleVariant, List<ThemisSuite.RunResult>>> results,
      Map<String, String> descriptions,
      DiskBandwidth disk,
      boolean cachesDropped) {
    StringBuilder s = new StringBuilder();
    s.append(
        cachesDropped
            ? "Page cache dropped before each job and when its last map ended (reduce slow start"
                + " 1.0 for all variants)"
            : "Page cache not dropped: data the jobs write may be read back from memory");
    if (disk != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "; disk %.0f MB/s read, %.0f MB/s write (physical-limits)",
              disk.readMbPerS(),
              disk.writeMbPerS()));
    }
    s.append(".\n\n");
    s.append(
        "| workload | stock-default s | stock-tuned s | themis s | Themis vs stock-default |"
            + " Themis vs stock-tuned | reads/record (default, tuned, themis) |"
            + " writes/record (default, tuned, themis) |\n");
    s.append("|---|---|---|---|---|---|---|---|\n");
    for (var e : results.entrySet()) {
      Map<ShuffleVariant, List<ThemisSuite.RunResult>> r = e.getValue();
      double def = median(r.get(ShuffleVariant.STOCK_DEFAULT), x -> x.phases().jobSeconds());
      double tuned = median(r.get(ShuffleVariant.STOCK_TUNED), x -> x.phases().jobSeconds());
      double themis = median(r.get(ShuffleVariant.THEMIS), x -> x.phases().jobSeconds());
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %.1f | %.1f | %.2fx | %.2fx | %s | %s |%n",
              e.getKey(),
              def,
              tuned,
              themis,
              def / themis,
              tuned / themis,
              perVariant(r, x -> x.audit().readsPerRecord()),
              perVariant(r, x -> x.audit().writesPerRecord())));
    }
    for (var e : results.entrySet()) {
      s.append("\n").append(detail(descriptions.get(e.getKey()), e.getValue(), disk));
    }
    s.append(
        "\nreads/record and writes/record are the paper's measure from the job's counters (input"
            + " and intermediate reads; intermediate and output writes; 2.0 and 2.0 is 2-IO). The"
            + " disk columns are /proc/diskstats over the whole job, so they include HDFS input,"
            + " output and its replica, and miss what stayed in the page cache. Disk fraction is"
            + " the time the disk needs for a phase's bytes at full speed (input read and"
            + " intermediate written once; intermediate read once and output written) over the"
            + " phase's time. /proc/diskstats gives only totals, so write size is the mean, not"
            + " the median.\n");
    return s.toString();
  }

  private static String detail(
      String description,
      Map<ShuffleVariant, List<ThemisSuite.RunResult>> results,
      DiskBandwidth disk) {
    List<ThemisSuite.RunResult> themis = results.get(ShuffleVariant.THEMIS);
    double themisSeconds = median(themis, r -> r.phases().jobSeconds());
    StringBuilder s = new StringBuilder();
    s.append(description).append("\n\n");
    s.append(
        "| variant | runs | job s (median) | Themis speed-up | phase 1 s | phase 2 s |"
            + " phase 1 disk fraction | phase 2 disk fraction | reads/record | writes/record |"
            + " disk MB written / MB input | disk MB read / MB input | mean disk write (KiB) |"
            + " largest/mean partition |\n");
    s.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (ShuffleVariant v : ShuffleVariant.values()) {
      List<ThemisSuite.RunResult> runs = results.get(v);
      if (runs == null || runs.isEmpty()) {
        continue;
      }
      double seconds = median(runs, r -> r.phases().jobSeconds());
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.1f | %.2fx | %.1f | %.1f | %s | %s | %.2f | %.2f | %.2f | %.2f | %.0f"
                  + " | %.2f |%n",
              v.label,
              runs.size(),
              seconds,
              themis == null ? Double.NaN : seconds / themisSeconds,
              median(runs, r -> r.phases().mapSeconds()),
              median(runs, r -> r.phases().reduceSeconds()),
              disk == null
                  ? "-"
                  : percent(median(runs, r -> r.phase1DiskSeconds() / r.phases().mapSeconds())),
              disk == null
                  ? "-"
                  : percent(median(runs, r -> r.phase2DiskSeconds() / r.phases().reduceSeconds())),
              median(runs, r -> r.audit().readsPerRecord()),
              median(runs, r -> r.audit().writesPerRecord()),
              median(runs, r -> r.disks().bytesWritten() / (double) r.inputBytes()),
              median(runs, r -> r.disks().bytesRead() / (double) r.inputBytes()),
              median(
                  runs,
                  r ->
                      r.disks().writes() == 0
                          ? 0
                          : r.disks().bytesWritten() / (double) r.disks().writes() / 1024),
              median(runs, ThemisSuite.RunResult::partitionSpread)));
    }
    return s.toString();
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
  }

  private static String perVariant(
      Map<ShuffleVariant, List<ThemisSuite.RunResult>> results,
      ToDoubleFunction<ThemisSuite.RunResult> metric) {
    StringBuilder s = new StringBuilder();
    for (ShuffleVariant v : ShuffleVariant.values()) {
      s.append(s.length() == 0 ? "" : ", ")
          .append(String.format(Locale.ROOT, "%.2f", median(results.get(v), metric)));
    }
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
