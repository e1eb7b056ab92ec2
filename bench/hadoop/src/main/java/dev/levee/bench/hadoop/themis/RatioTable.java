package dev.levee.bench.hadoop.themis;

import dev.levee.bench.report.Summary;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The run's results as the paper's Tab. 4 puts them: first one line per workload (each variant's
 * median job time, each Themis variant's speed-up over each stock variant, I/Os per record), then
 * per workload the detail of every variant: reducers, phases, disk traffic, write size, partition
 * spread, the memory cgroup's peak.
 */
final class RatioTable {
  private RatioTable() {}

  static String markdown(
      Map<String, Map<ShuffleVariant, List<ThemisSuite.RunResult>>> results,
      Map<String, String> descriptions,
      DiskBandwidth disk,
      boolean cachesDropped,
      MemoryCgroup memory) {
    List<ShuffleVariant> variants = present(results);
    List<ShuffleVariant> themis = variants.stream().filter(v -> v.themis).toList();
    List<ShuffleVariant> stock = variants.stream().filter(v -> !v.themis).toList();
    StringBuilder s = new StringBuilder();
    s.append(
        cachesDropped
            ? "Page cache dropped before each job and when its last map ended (reduce slow start"
                + " 1.0 for all variants)"
            : "Page cache not dropped: data the jobs write may be read back from memory");
    if (memory != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "; in a memory cgroup limited to %.2f GB (the cluster, its tasks and the page cache"
                  + " of what they write)",
              memory.limitBytes() / 1e9));
    }
    if (disk != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "; disk %.0f MB/s read, %.0f MB/s write (%s)",
              disk.readMbPerS(),
              disk.writeMbPerS(),
              disk.source()));
    }
    s.append(".\n\n");
    s.append("| workload |");
    for (ShuffleVariant v : variants) {
      s.append(" ").append(v.label).append(" s |");
    }
    for (ShuffleVariant t : themis) {
      for (ShuffleVariant b : stock) {
        s.append(" ").append(t.label).append(" vs ").append(b.label).append(" |");
      }
    }
    String labels = String.join(", ", variants.stream().map(v -> v.label).toList());
    s.append(" reads/record (").append(labels).append(") |");
    s.append(" writes/record (").append(labels).append(") |");
    s.append(" CPU us/record (").append(labels).append(") |\n");
    s.append("|---|")
        .append("---|".repeat(variants.size() + themis.size() * stock.size() + 3))
        .append("\n");
    for (var e : results.entrySet()) {
      Map<ShuffleVariant, List<ThemisSuite.RunResult>> r = e.getValue();
      s.append("| ").append(e.getKey()).append(" |");
      for (ShuffleVariant v : variants) {
        s.append(String.format(Locale.ROOT, " %.1f |", median(r.get(v), x -> x.seconds())));
      }
      for (ShuffleVariant t : themis) {
        for (ShuffleVariant b : stock) {
          s.append(
              String.format(
                  Locale.ROOT,
                  " %.2fx |",
                  median(r.get(b), x -> x.seconds()) / median(r.get(t), x -> x.seconds())));
        }
      }
      s.append(" ").append(perVariant(variants, r, x -> x.audit().readsPerRecord())).append(" |");
      s.append(" ").append(perVariant(variants, r, x -> x.audit().writesPerRecord())).append(" |");
      s.append(" ").append(perVariant(variants, r, x -> x.cpuMicrosPerRecord())).append(" |\n");
    }
    ShuffleVariant against =
        themis.contains(ShuffleVariant.THEMIS_PLANNED)
            ? ShuffleVariant.THEMIS_PLANNED
            : themis.isEmpty() ? null : themis.get(0);
    for (var e : results.entrySet()) {
      s.append("\n").append(detail(descriptions.get(e.getKey()), e.getValue(), disk, against));
    }
    s.append(
        "\nreads/record and writes/record are the paper's measure from the job's counters (input"
            + " and intermediate reads; intermediate and output writes; 2.0 and 2.0 is 2-IO). The"
            + " disk columns are /proc/diskstats over the whole job, so they include HDFS input,"
            + " output and its replica, and miss what stayed in the page cache. Disk fraction is"
            + " the time the disk needs for a phase's bytes at full speed (input read and"
            + " intermediate written once; intermediate read once and output written) over the"
            + " phase's time. /proc/diskstats gives only totals, so write size is the mean, not"
            + " the median. A -planned variant runs at the reducer count Themis's phase 0 chose;"
            + " themis-planned's job time includes phase 0 (the phase 0 column). CPU us/record is"
            + " the tasks' CPU_MILLISECONDS counters (maps and reduces, not the AM or the"
            + " daemons) per input record. On the emulated disk, busy is the share of a phase's"
            + " time the emulated spindle was serving requests (sampled each second).\n");
    return s.toString();
  }

  /** The variants that ran in any workload, in declaration order. */
  static List<ShuffleVariant> present(
      Map<String, Map<ShuffleVariant, List<ThemisSuite.RunResult>>> results) {
    return java.util.Arrays.stream(ShuffleVariant.values())
        .filter(v -> results.values().stream().anyMatch(r -> r.containsKey(v)))
        .toList();
  }

  private static String detail(
      String description,
      Map<ShuffleVariant, List<ThemisSuite.RunResult>> results,
      DiskBandwidth disk,
      ShuffleVariant against) {
    double againstSeconds =
        against == null ? Double.NaN : median(results.get(against), r -> r.seconds());
    StringBuilder s = new StringBuilder();
    s.append(description).append("\n\n");
    s.append(
        "| variant | runs | reducers | job s (median) | speed-up of "
            + (against == null ? "Themis" : against.label)
            + " | phase 0 s | phase 1 s | phase 2 s |"
            + " phase 1 disk fraction | phase 2 disk fraction |"
            + " phase 1 CPU busy (iowait) | phase 2 CPU busy (iowait) | CPU us/record |"
            + " emulated disk busy, phase 1 / 2 | reads/record | writes/record |"
            + " disk MB written / MB input | disk MB read / MB input | mean disk write (KiB) |"
            + " largest/mean partition | cgroup peak GB |\n");
    s.append("|---".repeat(21)).append("|\n");
    for (ShuffleVariant v : ShuffleVariant.values()) {
      List<ThemisSuite.RunResult> runs = results.get(v);
      if (runs == null || runs.isEmpty()) {
        continue;
      }
      double seconds = median(runs, r -> r.seconds());
      s.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %.0f | %.1f | %s | %.1f | %.1f | %.1f | %s | %s | %s | %s | %.2f | %s"
                  + " | %.2f | %.2f"
                  + " | %.2f"
                  + " | %.2f | %.0f | %.2f | %s |%n",
              v.label,
              runs.size(),
              median(runs, r -> r.reducers()),
              seconds,
              // No Themis variant ran: nothing to state a speed-up of.
              Double.isNaN(againstSeconds)
                  ? "-"
                  : String.format(Locale.ROOT, "%.2fx", seconds / againstSeconds),
              median(runs, ThemisSuite.RunResult::phase0Seconds),
              median(runs, r -> r.phases().mapSeconds()),
              median(runs, r -> r.phases().reduceSeconds()),
              disk == null
                  ? "-"
                  : percent(median(runs, r -> r.phase1DiskSeconds() / r.phases().mapSeconds())),
              disk == null
                  ? "-"
                  : percent(median(runs, r -> r.phase2DiskSeconds() / r.phases().reduceSeconds())),
              cpu(
                  median(runs, r -> r.phase1Cpu().busy()),
                  median(runs, r -> r.phase1Cpu().iowait())),
              cpu(
                  median(runs, r -> r.phase2Cpu().busy()),
                  median(runs, r -> r.phase2Cpu().iowait())),
              median(runs, ThemisSuite.RunResult::cpuMicrosPerRecord),
              runs.get(0).emulated() == null
                  ? "-"
                  : percent(median(runs, r -> r.emulated().phase1().busy()))
                      + " / "
                      + percent(median(runs, r -> r.emulated().phase2().busy())),
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
              median(runs, ThemisSuite.RunResult::partitionSpread),
              runs.get(0).cgroup() == null
                  ? "-"
                  : String.format(
                      Locale.ROOT, "%.2f", median(runs, r -> r.cgroup().peakBytes() / 1e9))));
    }
    return s.toString();
  }

  /** "97% (2%)": the machine's cores busy, and waiting on I/O, over a phase; "-" when unknown. */
  private static String cpu(double busy, double iowait) {
    return Double.isNaN(busy) ? "-" : percent(busy) + " (" + percent(iowait) + ")";
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.0f%%", 100 * fraction);
  }

  private static String perVariant(
      List<ShuffleVariant> variants,
      Map<ShuffleVariant, List<ThemisSuite.RunResult>> results,
      ToDoubleFunction<ThemisSuite.RunResult> metric) {
    StringBuilder s = new StringBuilder();
    for (ShuffleVariant v : variants) {
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
