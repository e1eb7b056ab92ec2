package dev.levee.bench.hadoop.themis;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;

/**
 * CPU per record of each variant relative to stock-default's, per workload, from the tasks' own
 * {@code CPU_MILLISECONDS} counters: Themis sorts once and never merges, so it should spend less
 * (the goal on Sort is 0.7). Ratios, not microseconds, because the workloads differ tenfold per
 * record; the notes give stock-default's absolute figure for each.
 */
public final class ThemisCpuFigure implements Figure {
  private static final String METRIC = "cpu_us_per_record";

  /** Issue 31's goal: Themis at most this share of stock-default's CPU per record on Sort. */
  private static final double SORT_GOAL = 0.7;

  private static final String BASE = ShuffleVariant.STOCK_DEFAULT.label;

  @Override
  public String file() {
    return "themis-cpu-per-record.png";
  }

  @Override
  public String caption() {
    return "CPU per input record of stock-tuned and Themis relative to stock-default's (the map and"
        + " reduce tasks' CPU_MILLISECONDS; `./levee bench themis`, the latest run over the most"
        + " workloads); the goal on Sort is 0.7.";
  }

  @Override
  public List<String> suites() {
    return List.of(ThemisPhaseFigure.SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    List<Measurement> run = drawnFrom(results);
    return run.stream().anyMatch(m -> m.variant().equals(BASE));
  }

  @Override
  public List<Measurement> drawnFrom(Results results) {
    return ThemisRuns.widest(results, METRIC);
  }

  @Override
  public BufferedImage draw(Results results) {
    List<Measurement> run = drawnFrom(results);
    List<String> workloads = ThemisRuns.workloads(run);
    List<String> variants = run.stream().map(Measurement::variant).distinct().toList();
    CategoryChart chart =
        Charts.bars(
            "Themis: CPU per record relative to stock-default (goal on Sort: 0.7, dashed)",
            "workload",
            "CPU per input record / stock-default's",
            1400,
            Charts.HEIGHT);
    chart.getStyler().setDecimalPattern("0.00");
    chart.getStyler().setLabelsVisible(true);
    double max = 0;
    for (String v : variants) {
      List<Double> y = new ArrayList<>();
      for (String w : workloads) {
        double ratio =
            ThemisRuns.median(run, v, w, METRIC) / ThemisRuns.median(run, BASE, w, METRIC);
        y.add(Double.isNaN(ratio) ? null : ratio);
        max = Double.isNaN(ratio) ? max : Math.max(max, ratio);
      }
      chart.addSeries(v, workloads, y).setFillColor(ShuffleVariant.colour(v));
    }
    Charts.headroom(chart, max);
    Charts.goalLine(chart, SORT_GOAL);
    StringBuilder base = new StringBuilder();
    for (String w : workloads) {
      base.append(base.length() == 0 ? "" : ", ")
          .append(
              String.format(Locale.ROOT, "%s %.2f", w, ThemisRuns.median(run, BASE, w, METRIC)));
    }
    return Charts.panels(
        "",
        List.of(Charts.image(chart)),
        List.of(
            String.format(
                Locale.ROOT,
                "Medians of %d run(s) per variant. Stock-default's CPU per record (us): %s."
                    + " Tasks only: the AM and the HDFS and YARN daemons are not counted.",
                ThemisRuns.repetitions(run),
                base)));
  }
}
