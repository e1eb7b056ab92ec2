package dev.levee.bench.report;

import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** All repetitions of one variant of one workload (same suite, variant and params). */
public final class ResultGroup {
  private final String suite;
  private final String variant;
  private final Map<String, Object> params;
  private final Map<String, List<Double>> values = new TreeMap<>();

  ResultGroup(String suite, String variant, Map<String, Object> params) {
    this.suite = suite;
    this.variant = variant;
    this.params = params;
  }

  /** Groups measurements, keeping first-seen order of suites, workloads and variants. */
  public static List<ResultGroup> group(List<Measurement> measurements) {
    Map<String, ResultGroup> groups = new LinkedHashMap<>();
    for (Measurement m : measurements) {
      String key = m.suite() + '\u0000' + m.variant() + '\u0000' + paramsLabel(m.params());
      ResultGroup g =
          groups.computeIfAbsent(key, k -> new ResultGroup(m.suite(), m.variant(), m.params()));
      m.metrics()
          .forEach(
              (name, v) -> {
                if (v != null && Double.isFinite(v)) {
                  g.values.computeIfAbsent(name, n -> new ArrayList<>()).add(v);
                }
              });
    }
    return new ArrayList<>(groups.values());
  }

  public static String paramsLabel(Map<String, Object> params) {
    if (params.isEmpty()) {
      return "-";
    }
    return new TreeMap<>(params)
        .entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(", "));
  }

  public String suite() {
    return suite;
  }

  public String variant() {
    return variant;
  }

  public String paramsLabel() {
    return paramsLabel(params);
  }

  public Map<String, List<Double>> values() {
    return values;
  }

  public Summary summary(String metric) {
    List<Double> v = values.get(metric);
    return v == null || v.isEmpty() ? null : Summary.of(v);
  }
}
