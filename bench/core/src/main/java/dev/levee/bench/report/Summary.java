package dev.levee.bench.report;

import java.util.List;

/** Median and spread of repeated measurements of one metric. */
public record Summary(int n, double median, double min, double max) {

  public static Summary of(List<Double> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("no values");
    }
    double[] v = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int n = v.length;
    double median = n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    return new Summary(n, median, v[0], v[n - 1]);
  }

  /** (max - min) / median: the spread as a fraction of the typical value. */
  public double relativeSpread() {
    return median == 0 ? 0 : (max - min) / Math.abs(median);
  }
}
