package dev.levee.bench.report.figures;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

/**
 * The SpongeFiles paper's three jobs (Median, Frequent Anchortext, Spam Quantiles) side by side,
 * one panel per job: every arm per condition, and the job's no-spill bound as a line, with the
 * share of stock's spill penalty (stock minus the bound) that SpongeFiles removes under each
 * condition. One run only (the latest): runs of different sizes or sessions are never pooled,
 * because the penalty is a difference of two times and pooling sessions made it unsound before.
 */
public final class SpongeJobsFigure implements Figure {
  private static final String NO_SPILL = "no-spill";

  /** Below this share of the bound, stock's penalty is not told apart from noise. */
  static final double NOISE = 0.05;

  private static final String SPONGE = "spongefiles";

  /** The arms in the order they are drawn, with their legend names and colours. */
  private static final Map<String, String> ARMS = new LinkedHashMap<>();

  private static final Map<String, Color> COLOURS = new LinkedHashMap<>();

  private static final Map<String, String> SHORT = new LinkedHashMap<>();

  /** The jobs in the paper's order, with readable names. */
  private static final Map<String, String> JOBS = new LinkedHashMap<>();

  /** The spilling conditions, in the paper's order. */
  private static final Map<String, String> CONDITIONS = new LinkedHashMap<>();

  static {
    ARMS.put(Measurement.STOCK, "stock (spills to disk)");
    ARMS.put("stock-tuned", "stock, tuned");
    ARMS.put("stock-tmpfs", "stock, local dirs on tmpfs");
    ARMS.put(SPONGE, "SpongeFiles");
    SHORT.put(Measurement.STOCK, "stock");
    SHORT.put("stock-tuned", "tuned");
    SHORT.put("stock-tmpfs", "tmpfs");
    SHORT.put(SPONGE, "SpongeFiles");
    COLOURS.put(Measurement.STOCK, Charts.STOCK);
    COLOURS.put("stock-tuned", Charts.STOCK.darker());
    COLOURS.put("stock-tmpfs", new Color(0xc7, 0xb2, 0x99));
    COLOURS.put(SPONGE, Charts.PLUGIN);
    JOBS.put("median", "Median (MapReduce)");
    JOBS.put("anchortext", "Frequent Anchortext (Pig)");
    JOBS.put("quantiles", "Spam Quantiles (Pig)");
    CONDITIONS.put("none", "alone");
    CONDITIONS.put("disk-contention", "disk contention");
    CONDITIONS.put("memory-pressure", "memory pressure");
  }

  @Override
  public String file() {
    return "sponge-median-three-jobs.png";
  }

  @Override
  public String caption() {
    return "The SpongeFiles paper's three jobs in the latest sponge-median run, one panel per job:"
        + " wall-clock seconds of each arm per condition (median of the run's repetitions; a"
        + " failed arm has a bar of 0 and is named under its panel), and the no-spill bound (stock"
        + " with a reducer heap that holds the input) as a green line. Under each condition,"
        + " 'closes N%' is the share of stock's spill penalty (stock minus the bound) that"
        + " SpongeFiles removes ('no penalty' when stock is within 5% of the bound). Lower is"
        + " better.";
  }

  @Override
  public List<String> suites() {
    return List.of(SpongeMedianFigure.SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    List<Measurement> run = latestRun(results);
    return run.stream().map(SpongeJobsFigure::job).distinct().count() > 1
        && run.stream().anyMatch(m -> CONDITIONS.containsKey(condition(m)));
  }

  @Override
  public List<Measurement> drawnFrom(Results results) {
    return latestRun(results);
  }

  @Override
  public BufferedImage draw(Results results) {
    List<Measurement> run = latestRun(results);
    List<BufferedImage> panels = new ArrayList<>();
    for (Map.Entry<String, String> job : JOBS.entrySet()) {
      List<Measurement> lines = run.stream().filter(m -> job.getKey().equals(job(m))).toList();
      if (!lines.isEmpty()) {
        panels.add(panel(job.getValue(), lines));
      }
    }
    Measurement first = run.get(0);
    return Charts.panels(
        "SpongeFiles: the paper's three jobs, every arm per condition, against the no-spill bound",
        panels,
        String.format(
            Locale.ROOT,
            "run at %s, %s; %s NodeManagers with %s MB sponges; seconds, lower is better",
            first.gitRevision() == null
                ? "?"
                : first.gitRevision().substring(0, Math.min(7, first.gitRevision().length())),
            first.timestamp() == null
                ? "?"
                : first.timestamp().substring(0, Math.min(16, first.timestamp().length())),
            first.params().get("node_managers"),
            first.params().get("sponge_pool_mb_per_node")));
  }

  private static BufferedImage panel(String title, List<Measurement> lines) {
    Summary bound =
        SpongeMedianFigure.seconds(
            SpongeMedianFigure.ok(select(lines, NO_SPILL, Measurement.STOCK)));
    List<String> labels = new ArrayList<>();
    Map<String, List<Double>> bars = new LinkedHashMap<>();
    ARMS.keySet().forEach(a -> bars.put(a, new ArrayList<>()));
    Map<String, List<String>> failedWhere = new LinkedHashMap<>();
    Map<String, List<String>> notRun = new LinkedHashMap<>();
    for (Map.Entry<String, String> c : CONDITIONS.entrySet()) {
      if (lines.stream().noneMatch(m -> c.getKey().equals(condition(m)))) {
        continue;
      }
      for (String arm : ARMS.keySet()) {
        List<Measurement> runs = select(lines, c.getKey(), arm);
        Summary s = SpongeMedianFigure.seconds(SpongeMedianFigure.ok(runs));
        bars.get(arm).add(s == null ? null : s.median());
        if (runs.isEmpty() && lines.stream().anyMatch(m -> m.variant().equals(arm))) {
          notRun.computeIfAbsent(arm, a -> new ArrayList<>()).add(c.getValue().split(" ")[0]);
        }
        if (runs.stream().anyMatch(SpongeMedianFigure::failed)) {
          failedWhere.computeIfAbsent(arm, a -> new ArrayList<>()).add(c.getValue().split(" ")[0]);
        }
      }
      labels.add(c.getValue() + closes(bars, bound));
    }
    String heap =
        lines.stream()
            .filter(m -> CONDITIONS.containsKey(condition(m)))
            .map(m -> m.params().get("reduce_heap_mb"))
            .filter(Objects::nonNull)
            .findFirst()
            .map(Object::toString)
            .orElse("?");
    CategoryChart chart =
        Charts.bars(
            title, "heap " + heap + " MB", "job seconds", Charts.WIDTH * 2 / 3, Charts.HEIGHT);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setDecimalPattern("#,##0");
    chart.getStyler().setLabelsPosition(0.25);
    chart.getStyler().setLabelsRotation(90);
    for (Map.Entry<String, String> arm : ARMS.entrySet()) {
      if (lines.stream().noneMatch(m -> m.variant().equals(arm.getKey()))) {
        continue;
      }
      CategorySeries s = chart.addSeries(arm.getValue(), labels, bars.get(arm.getKey()));
      s.setFillColor(COLOURS.get(arm.getKey()));
    }
    if (bound != null) {
      AnnotationLine line = new AnnotationLine(bound.median(), false, false);
      chart.addAnnotation(line);
      chart.getStyler().setAnnotationLineColor(Charts.BOUND);
      chart.getStyler().setAnnotationLineStroke(new BasicStroke(3f));
      chart.setXAxisTitle(
          chart.getXAxisTitle()
              + String.format(Locale.ROOT, "; no-spill %.1f s (green)", bound.median()));
    }
    // A failed or missing arm has no bar (never a bar of 0, which reads as fast): say where, below
    // the axis.
    for (String arm : ARMS.keySet()) {
      List<String> says = new ArrayList<>();
      if (failedWhere.containsKey(arm)) {
        says.add("FAILED " + String.join(", ", failedWhere.get(arm)));
      }
      if (notRun.containsKey(arm)) {
        says.add("not run " + String.join(", ", notRun.get(arm)));
      }
      if (!says.isEmpty()) {
        chart.setXAxisTitle(
            chart.getXAxisTitle() + "; " + SHORT.get(arm) + " " + String.join(", ", says));
      }
    }
    return Charts.image(chart);
  }

  /** ", closes 40%" of stock's spill penalty, or "" when the bars or the bound are missing. */
  static String closes(Map<String, List<Double>> bars, Summary bound) {
    List<Double> stock = bars.get(Measurement.STOCK);
    List<Double> sponge = bars.get(SPONGE);
    Double s = stock.get(stock.size() - 1);
    Double p = sponge.get(sponge.size() - 1);
    if (bound == null || s == null || p == null) {
      return "";
    }
    return closes(s, p, bound.median());
  }

  /** ", closes 40%" of the penalty {@code stock - bound}, or ", no penalty" within the noise. */
  static String closes(double stock, double sponge, double bound) {
    double penalty = stock - bound;
    // A penalty within a twentieth of the bound is run-to-run noise here: a share of it is not.
    if (penalty <= NOISE * bound) {
      return ", no penalty";
    }
    // Below the bound is not a share above 100%: say by how much it beat the bound.
    if (sponge <= bound) {
      return String.format(Locale.ROOT, ", closes all (%.1f s under the bound)", bound - sponge);
    }
    return String.format(Locale.ROOT, ", closes %.0f%%", 100 * (stock - sponge) / penalty);
  }

  /**
   * The lines of the latest run: those of the same revision and command as the last line appended.
   * Two runs of one command at one revision are the same experiment, so they may pool.
   */
  static List<Measurement> latestRun(Results results) {
    Predicate<Measurement> realDisk = m -> !SpongeMedianFigure.onEmulatedDisk(m);
    // A run of the no-spill condition alone (the check of what SpongeFiles cost unused) has no
    // spilling arm to draw: the figure stays on the latest run that has one, with all its lines.
    List<Measurement> spilling =
        results.latestRun(
            SpongeMedianFigure.SUITE, realDisk.and(m -> CONDITIONS.containsKey(condition(m))));
    if (spilling.isEmpty()) {
      return List.of();
    }
    Measurement last = spilling.get(0);
    return results.latestRun(
        SpongeMedianFigure.SUITE,
        realDisk
            .and(m -> Objects.equals(m.gitRevision(), last.gitRevision()))
            .and(m -> Objects.equals(m.command(), last.command())));
  }

  private static String job(Measurement m) {
    return String.valueOf(m.params().getOrDefault("job", "median"));
  }

  private static String condition(Measurement m) {
    return String.valueOf(m.params().get("condition"));
  }

  private static List<Measurement> select(List<Measurement> lines, String condition, String arm) {
    return lines.stream()
        .filter(m -> m.variant().equals(arm))
        .filter(m -> condition.equals(condition(m)))
        .toList();
  }
}
