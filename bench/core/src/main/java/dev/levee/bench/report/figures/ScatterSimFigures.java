package dev.levee.bench.report.figures;

import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/** What the {@code scatter-sim} figures share: medians per policy and number of servers. */
final class ScatterSimFigures {
  static final String SUITE = "scatter-sim";
  static final String BATCH = "batch-sampling";
  static final String FREE_LIST = "free-list";

  private ScatterSimFigures() {}

  static boolean has(Results results, String metric) {
    return results.of(SUITE).stream().anyMatch(m -> m.metrics().containsKey(metric));
  }

  /** Server counts simulated, ascending. */
  static List<Double> scales(Results results) {
    TreeSet<Double> n = new TreeSet<>();
    for (Measurement m : results.of(SUITE)) {
      if (m.params().get("servers") instanceof Number x) {
        n.add(x.doubleValue());
      }
    }
    return new ArrayList<>(n);
  }

  /** The server counts as axis labels: "32", "100". */
  static List<String> labels(List<Double> scales) {
    return scales.stream().map(n -> String.format(java.util.Locale.ROOT, "%.0f", n)).toList();
  }

  /** The median of {@code metric} for {@code policy} at each number of servers (NaN if none). */
  static List<Double> medians(Results results, String policy, String metric, List<Double> scales) {
    Map<Double, List<Measurement>> byScale = new TreeMap<>();
    for (Measurement m : results.of(SUITE)) {
      if (m.variant().equals(policy) && m.params().get("servers") instanceof Number x) {
        byScale.computeIfAbsent(x.doubleValue(), k -> new ArrayList<>()).add(m);
      }
    }
    List<Double> out = new ArrayList<>();
    for (Double n : scales) {
      out.add(Results.median(byScale.getOrDefault(n, List.of()), metric));
    }
    return out;
  }

  /** A parameter of the latest line, for captions and axis titles. */
  static Object param(Results results, String name) {
    List<Measurement> lines = results.of(SUITE);
    return lines.isEmpty() ? "?" : lines.get(lines.size() - 1).params().getOrDefault(name, "?");
  }
}
