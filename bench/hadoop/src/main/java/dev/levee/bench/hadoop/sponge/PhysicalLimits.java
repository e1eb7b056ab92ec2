package dev.levee.bench.hadoop.sponge;

import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.ResultsStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The machine's measured limits from the latest {@code physical-limits} run, as medians of that
 * run's repetitions: what each spill medium is compared against.
 */
final class PhysicalLimits {
  static final String SUITE = "physical-limits";
  private final Map<String, Double> medianMbPerS;

  PhysicalLimits(Map<String, Double> medianMbPerS) {
    this.medianMbPerS = Map.copyOf(medianMbPerS);
  }

  static PhysicalLimits none() {
    return new PhysicalLimits(Map.of());
  }

  /**
   * Reads {@code <dir>/physical-limits.jsonl}; no file means no limits (the table then says so).
   */
  static PhysicalLimits load(Path resultsDir) throws IOException {
    ResultsStore store = new ResultsStore(resultsDir);
    Path file = store.fileFor(SUITE);
    if (!Files.isRegularFile(file)) {
      return none();
    }
    return latest(store.read(file));
  }

  /**
   * Per variant, the last run: a run starts at repetition 0, so the lines from a variant's last
   * repetition-0 line on (in file order, which is append order) are its latest run.
   */
  static PhysicalLimits latest(List<Measurement> lines) {
    Map<String, List<Double>> lastRun = new HashMap<>();
    for (Measurement m : lines) {
      Double v = m.metrics().get("mb_per_s");
      if (v == null) {
        continue;
      }
      if (m.repetition() == 0 || !lastRun.containsKey(m.variant())) {
        lastRun.put(m.variant(), new ArrayList<>());
      }
      lastRun.get(m.variant()).add(v);
    }
    Map<String, Double> medians = new HashMap<>();
    lastRun.forEach((variant, values) -> medians.put(variant, median(values)));
    return new PhysicalLimits(medians);
  }

  OptionalDouble mbPerS(String variant) {
    Double v = medianMbPerS.get(variant);
    return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
  }

  /**
   * The best of several variants (e.g. memcpy from heap or direct buffers): the stricter yardstick.
   */
  Limit best(String label, String... variants) {
    String which = null;
    double best = 0;
    for (String v : variants) {
      OptionalDouble d = mbPerS(v);
      if (d.isPresent() && d.getAsDouble() > best) {
        best = d.getAsDouble();
        which = v;
      }
    }
    return which == null ? null : new Limit(label, which, best);
  }

  boolean isEmpty() {
    return medianMbPerS.isEmpty();
  }

  static double median(List<Double> values) {
    double[] a = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(a);
    int n = a.length;
    return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
  }

  /**
   * A yardstick: its label in the table, the physical-limits variant it came from, and its median
   * MB/s.
   */
  record Limit(String label, String variant, double mbPerS) {}
}
