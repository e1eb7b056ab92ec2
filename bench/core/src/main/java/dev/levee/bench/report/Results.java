package dev.levee.bench.report;

import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/** Every result line the report was given, by suite, in file (append) order. */
public final class Results {
  private final Map<String, List<Measurement>> bySuite = new LinkedHashMap<>();

  public Results(List<Measurement> all) {
    all.forEach(m -> bySuite.computeIfAbsent(m.suite(), s -> new ArrayList<>()).add(m));
  }

  public boolean has(String suite) {
    return bySuite.containsKey(suite);
  }

  /** The suite's lines in append order; empty when it has none. */
  public List<Measurement> of(String suite) {
    return Collections.unmodifiableList(bySuite.getOrDefault(suite, List.of()));
  }

  public List<String> suites() {
    return List.copyOf(bySuite.keySet());
  }

  /** The suite's lines grouped by variant and workload: medians over repetitions. */
  public List<ResultGroup> groups(String suite) {
    return ResultGroup.group(of(suite));
  }

  /**
   * Per variant, the lines of its latest run, in first-seen variant order: a run starts at
   * repetition 0, so a variant's lines from its last repetition-0 line on (append order) are its
   * latest run. Figures that show "this machine now" use this; the tables keep every run.
   */
  public Map<String, List<Measurement>> latestRunByVariant(String suite) {
    Map<String, List<Measurement>> latest = new LinkedHashMap<>();
    for (Measurement m : of(suite)) {
      if (m.repetition() == 0 || !latest.containsKey(m.variant())) {
        latest.put(m.variant(), new ArrayList<>());
      }
      latest.get(m.variant()).add(m);
    }
    return latest;
  }

  /**
   * The lines of the suite's latest run: the revision and command of the line measured last. Two
   * runs of one command at one revision are the same experiment, so they pool.
   */
  public List<Measurement> latestRun(String suite) {
    return latestRun(suite, m -> true);
  }

  /** {@link #latestRun(String)} among the lines {@code which} accepts. */
  public List<Measurement> latestRun(String suite, Predicate<Measurement> which) {
    List<Measurement> lines = of(suite).stream().filter(which).toList();
    Measurement last =
        lines.stream()
            .max(Comparator.comparing(m -> Objects.toString(m.timestamp(), "")))
            .orElse(null);
    if (last == null) {
      return List.of();
    }
    return lines.stream()
        .filter(m -> Objects.equals(m.gitRevision(), last.gitRevision()))
        .filter(m -> Objects.equals(m.command(), last.command()))
        .toList();
  }

  /** The lines of {@link #latestRunByVariant} of each suite, in one list. */
  public List<Measurement> latestRuns(String... suites) {
    List<Measurement> out = new ArrayList<>();
    for (String suite : suites) {
      latestRunByVariant(suite).values().forEach(out::addAll);
    }
    return out;
  }

  /** The median of one metric over lines that carry it, or NaN when none does. */
  public static double median(List<Measurement> lines, String metric) {
    List<Double> v =
        lines.stream()
            .map(m -> m.metrics().get(metric))
            .filter(x -> x != null && Double.isFinite(x))
            .toList();
    return v.isEmpty() ? Double.NaN : Summary.of(v).median();
  }
}
