package dev.levee.bench.results;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One measured run: one JSON line in {@code bench/results/<suite>.jsonl}.
 *
 * <p>Conventions the report relies on: {@code params} describe the workload and are identical for
 * every variant and repetition of the same workload (repetitions are separate lines, told apart by
 * {@code repetition}); {@code variant} names what is being compared, and a suite that compares a
 * plugin with stock Hadoop/Spark names the baseline {@value #STOCK}. Metric names carry their unit
 * ({@code seconds}, {@code mb_per_s}, {@code bytes}).
 */
public record Measurement(
    String suite,
    String variant,
    Map<String, Object> params,
    Map<String, Double> metrics,
    int repetition,
    Map<String, Object> machine,
    String gitRevision,
    String timestamp,
    String command) {

  public static final String STOCK = "stock";

  public Measurement {
    Objects.requireNonNull(suite, "suite");
    Objects.requireNonNull(variant, "variant");
    params = params == null ? Map.of() : new TreeMap<>(params);
    metrics = metrics == null ? Map.of() : new TreeMap<>(metrics);
    machine = machine == null ? Map.of() : machine;
  }
}
