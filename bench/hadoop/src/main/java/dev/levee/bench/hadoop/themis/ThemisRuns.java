package dev.levee.bench.hadoop.themis;

import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/** Picks, from the published themis lines, the run a figure is drawn from. */
final class ThemisRuns {
  private ThemisRuns() {}

  /**
   * The run (one revision and command) on the real disk with {@code metric} that measured the most
   * workloads, the latest of those: runs of one workload under a special condition are tables in
   * the module's README, and the emulated disk is another regime, not more runs of this one.
   */
  static List<Measurement> widest(Results results, String metric) {
    List<Measurement> best = List.of();
    for (List<Measurement> run :
        runs(
            results,
            m -> m.metrics().containsKey(metric) && !"emulated".equals(m.params().get("disk")))) {
      if (workloads(run).size() >= workloads(best).size()) {
        best = run;
      }
    }
    return best;
  }

  /** The published themis lines that pass {@code keep}, grouped by run (revision and command). */
  static Collection<List<Measurement>> runs(Results results, Predicate<Measurement> keep) {
    Map<List<String>, List<Measurement>> runs = new LinkedHashMap<>();
    for (Measurement m : results.of(ThemisPhaseFigure.SUITE)) {
      if (keep.test(m)) {
        runs.computeIfAbsent(
                List.of(Objects.toString(m.gitRevision()), Objects.toString(m.command())),
                k -> new ArrayList<>())
            .add(m);
      }
    }
    return runs.values();
  }

  /** Repetitions of each variant in {@code run}. */
  static int repetitions(List<Measurement> run) {
    return run.stream().mapToInt(Measurement::repetition).max().orElse(0) + 1;
  }

  static List<String> workloads(List<Measurement> run) {
    return run.stream().map(m -> String.valueOf(m.params().get("workload"))).distinct().toList();
  }

  static double median(List<Measurement> run, String variant, String workload, String metric) {
    return Results.median(
        run.stream()
            .filter(m -> m.variant().equals(variant))
            .filter(m -> workload.equals(String.valueOf(m.params().get("workload"))))
            .toList(),
        metric);
  }
}
