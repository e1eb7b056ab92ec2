package dev.levee.bench.report.figures;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The paper's Median job (one reducer sorting far more than its heap) per condition, stock Hadoop
 * against SpongeFiles, as in the SpongeFiles paper's Figures 4 and 5, with the no-spill bound of
 * its Figure 6: the same job with a reducer heap that holds its whole input.
 */
public final class SpongeMedianFigure implements Figure {
  static final String SUITE = "sponge-median";
  private static final String STOCK = Measurement.STOCK;
  private static final String SPONGE = "spongefiles";
  private static final String TUNED = "stock-tuned";
  private static final String NO_SPILL = "no-spill";

  /** The suite's conditions in the paper's order, with readable names. */
  private static final Map<String, String> CONDITIONS = new LinkedHashMap<>();

  static {
    CONDITIONS.put("none", "job alone");
    CONDITIONS.put("disk-contention", "disk contention");
    CONDITIONS.put("memory-pressure", "memory pressure");
    CONDITIONS.put("disk-contention+memory-pressure", "disk contention + memory pressure");
  }

  @Override
  public String file() {
    return "sponge-median-per-condition.png";
  }

  @Override
  public String caption() {
    return "The Median job per condition: wall-clock seconds of stock Hadoop (grey), stock as an"
        + " operator tunes it (dark grey, when measured) and SpongeFiles (blue), bars at the median of all recorded runs with min..max whiskers, beside a"
        + " co-running sort; failed runs are counted under the condition and left out of the bars."
        + " The green line is the no-spill bound: stock with a reducer heap that holds its whole"
        + " input, beside the same co-runner when the run had one (its co_runner parameter)."
        + " Lower is better.";
  }

  @Override
  public List<String> suites() {
    return List.of(SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    return medianJob(results).stream()
        .anyMatch(
            m ->
                CONDITIONS.containsKey(String.valueOf(m.params().get("condition")))
                    && m.metrics().containsKey("seconds"));
  }

  @Override
  public List<Measurement> drawnFrom(Results results) {
    List<Measurement> all = medianJob(results);
    // One workload per figure, the largest recorded (a --quick smoke run published beside
    // full-size runs must not be folded into their medians).
    double numbers = all.stream().mapToDouble(SpongeMedianFigure::numbers).max().orElse(0);
    return all.stream().filter(m -> numbers(m) == numbers).toList();
  }

  @Override
  public BufferedImage draw(Results results) {
    List<Measurement> lines = drawnFrom(results);
    Measurement first =
        lines.stream()
            .filter(m -> CONDITIONS.containsKey(String.valueOf(m.params().get("condition"))))
            .findFirst()
            .orElseThrow();
    List<String> labels = new ArrayList<>();
    List<Double> stock = new ArrayList<>();
    List<Double> stockErr = new ArrayList<>();
    List<Double> tuned = new ArrayList<>();
    List<Double> tunedErr = new ArrayList<>();
    List<Double> sponge = new ArrayList<>();
    List<Double> spongeErr = new ArrayList<>();
    boolean anyTuned = lines.stream().anyMatch(m -> m.variant().equals(TUNED));
    for (Map.Entry<String, String> c : CONDITIONS.entrySet()) {
      List<Measurement> stockRuns = runs(lines, c.getKey(), STOCK);
      List<Measurement> tunedRuns = runs(lines, c.getKey(), TUNED);
      List<Measurement> spongeRuns = runs(lines, c.getKey(), SPONGE);
      if (stockRuns.isEmpty() && spongeRuns.isEmpty()) {
        continue;
      }
      double s = addBar(stockRuns, stock, stockErr);
      double t = addBar(tunedRuns, tuned, tunedErr);
      double p = addBar(spongeRuns, sponge, spongeErr);
      labels.add(
          c.getValue()
              + failures(stockRuns, spongeRuns)
              + (anyTuned && tunedRuns.isEmpty() ? " (tuned not run)" : "")
              + ratio(s, p, "stock")
              + (anyTuned ? ratio(t, p, "tuned").replace(":", ",") : ""));
    }
    Summary bound = seconds(ok(runs(lines, NO_SPILL, STOCK)));
    Summary spongeNoSpill = seconds(ok(runs(lines, NO_SPILL, SPONGE)));
    Object heapMb = first.params().get("reduce_heap_mb");
    Object inputBytes = first.params().get("reducer_input_bytes");
    String workload =
        String.format(
            Locale.ROOT,
            "Median of %s numbers: one reducer, %s MB of input, %s MB heap; %s NodeManagers",
            humanCount(first.params().get("numbers")),
            inputBytes instanceof Number n
                ? String.format(Locale.ROOT, "%.0f", n.doubleValue() / 1e6)
                : "?",
            heapMb,
            first.params().get("node_managers"));
    CategoryChart chart =
        Charts.bars(
            "SpongeFiles: the Median job per condition, stock vs SpongeFiles",
            workload,
            "job wall-clock seconds (median, whiskers min..max)");
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setDecimalPattern("#,##0");
    // Low in the bar, clear of the whiskers and of the bound's line.
    chart.getStyler().setLabelsPosition(0.25);
    CategorySeries s = chart.addSeries("stock Hadoop (spills to disk)", labels, stock, stockErr);
    s.setFillColor(Charts.STOCK);
    if (anyTuned) {
      CategorySeries t =
          chart.addSeries(
              "stock, tuned (sort factor 100, later merges, Snappy map output)",
              labels,
              tuned,
              tunedErr);
      t.setFillColor(Charts.STOCK.darker());
    }
    CategorySeries p = chart.addSeries("SpongeFiles", labels, sponge, spongeErr);
    p.setFillColor(Charts.PLUGIN);
    if (bound != null) {
      List<Double> flat = labels.stream().map(l -> bound.median()).toList();
      CategorySeries b =
          chart.addSeries(
              String.format(
                  Locale.ROOT,
                  "no-spill bound: %.0f s (heap holds the input%s)",
                  bound.median(),
                  spongeNoSpill == null
                      ? ""
                      : String.format(Locale.ROOT, "; SpongeFiles %.0f s", spongeNoSpill.median())),
              labels,
              flat);
      b.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
      b.setLineColor(Charts.BOUND);
      b.setMarker(SeriesMarkers.NONE);
      b.setLineStyle(new java.awt.BasicStroke(3f));
      // The series spans category centres only; the annotation carries the bound across the plot.
      AnnotationLine across = new AnnotationLine(bound.median(), false, false);
      chart.addAnnotation(across);
      chart.getStyler().setAnnotationLineColor(Charts.BOUND);
      chart.getStyler().setAnnotationLineStroke(new java.awt.BasicStroke(3f));
    }
    return Charts.image(chart);
  }

  private static double numbers(Measurement m) {
    return m.params().get("numbers") instanceof Number n ? n.doubleValue() : 0;
  }

  /**
   * The suite's Median job lines: lines before the Pig jobs joined the suite name no job, and the
   * Pig jobs' lines are not drawn here.
   */
  private static List<Measurement> medianJob(Results results) {
    return results.of(SUITE).stream()
        .filter(m -> Objects.equals(m.params().getOrDefault("job", "median"), "median"))
        // Runs on the emulated disk are another regime, not more runs of this one.
        .filter(m -> !onEmulatedDisk(m))
        .toList();
  }

  private static List<Measurement> runs(List<Measurement> lines, String condition, String variant) {
    return lines.stream()
        .filter(m -> m.variant().equals(variant))
        .filter(m -> Objects.equals(m.params().get("condition"), condition))
        .toList();
  }

  /** Whether a line was measured with {@code --disk emulated}. */
  static boolean onEmulatedDisk(Measurement m) {
    return "emulated".equals(m.params().get("disk"));
  }

  static boolean failed(Measurement m) {
    return m.metrics().getOrDefault("failed", 0.0) > 0
        || m.metrics().getOrDefault("output_mismatch", 0.0) > 0;
  }

  static List<Measurement> ok(List<Measurement> runs) {
    return runs.stream().filter(m -> !failed(m)).toList();
  }

  static Summary seconds(List<Measurement> runs) {
    List<Double> v =
        runs.stream().map(m -> m.metrics().get("seconds")).filter(Objects::nonNull).toList();
    return v.isEmpty() ? null : Summary.of(v);
  }

  /** Adds the bar and returns its median, NaN when no run succeeded (then there is no bar). */
  private static double addBar(List<Measurement> runs, List<Double> y, List<Double> err) {
    Summary s = seconds(ok(runs));
    // No run that finished: no bar (a bar of 0 would read as fast); the label names the failure.
    y.add(s == null ? null : s.median());
    err.add(s == null ? 0.0 : Math.max(s.max() - s.median(), s.median() - s.min()));
    return s == null ? Double.NaN : s.median();
  }

  private static String ratio(double baseline, double sponge, String name) {
    return Double.isNaN(baseline) || Double.isNaN(sponge) || baseline == 0
        ? ""
        : String.format(Locale.ROOT, ": %.2fx %s", sponge / baseline, name);
  }

  /** " (stock: 1 of 2 runs failed)" or "", so a failure is visible where it happened. */
  static String failures(List<Measurement> stock, List<Measurement> sponge) {
    List<String> parts = new ArrayList<>();
    long sf = stock.stream().filter(SpongeMedianFigure::failed).count();
    long pf = sponge.stream().filter(SpongeMedianFigure::failed).count();
    if (sf > 0) {
      parts.add("stock " + sf + "/" + stock.size() + " FAILED");
    }
    if (pf > 0) {
      parts.add("SpongeFiles " + pf + "/" + sponge.size() + " FAILED");
    }
    String n = "n=" + Math.max(stock.size(), sponge.size());
    return parts.isEmpty() ? " (" + n + ")" : " (" + n + "; " + String.join(", ", parts) + ")";
  }

  private static String humanCount(Object n) {
    if (!(n instanceof Number num)) {
      return "?";
    }
    double v = num.doubleValue();
    return v >= 1e6
        ? String.format(Locale.ROOT, "%.0fM", v / 1e6)
        : String.format(Locale.ROOT, "%,.0f", v);
  }
}
