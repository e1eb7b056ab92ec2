package dev.levee.bench.hadoop.median.suite;

import java.util.Arrays;
import java.util.List;

/**
 * The SpongeFiles paper's three macro jobs: the Median MapReduce job and the two Pig queries over
 * the web dataset, each with one reducer whose input is skewed far past its heap.
 */
enum Workload {
  MEDIAN("median", false),
  /** Pages grouped by language; the top anchor-text terms per language (a holistic UDF). */
  ANCHORTEXT("anchortext", true),
  /** Pages grouped by domain; spam-score quantiles from a UDF sorting the unprojected group. */
  QUANTILES("quantiles", true);

  final String label;

  /** Whether the job is a Pig query (bags spill) rather than a MapReduce job (the merge spills). */
  final boolean pig;

  Workload(String label, boolean pig) {
    this.label = label;
    this.pig = pig;
  }

  static List<String> labels() {
    return Arrays.stream(values()).map(w -> w.label).toList();
  }
}
