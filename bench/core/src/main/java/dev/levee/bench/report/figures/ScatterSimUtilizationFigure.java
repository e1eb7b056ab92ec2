package dev.levee.bench.report.figures;

import static dev.levee.bench.report.figures.ScatterSimFigures.BATCH;
import static dev.levee.bench.report.figures.ScatterSimFigures.FREE_LIST;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import java.awt.BasicStroke;
import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The thesis's Figure 2.2 turned into a measurement: pool utilization against the number of sponge
 * servers for both placement policies, with the bound U = 1 − (1 − K/N)^M as a line; the right
 * panel zooms into the top 10 points.
 */
public final class ScatterSimUtilizationFigure implements Figure {
  static final String METRIC = "util_at_first_refusal_pct";

  @Override
  public String file() {
    return "scatter-sim-utilization.png";
  }

  @Override
  public String caption() {
    return "SpongeFiles remote placement simulated at 32 to 1,000 sponge servers (`./levee bench"
        + " scatter-sim`, the real placement code, a tracker list refreshed every 100 store rounds):"
        + " share of the pool's chunks in use when the first store is refused, median over seeds,"
        + " for Scatter's batch sampling and the paper's free list, against the thesis's bound"
        + " U = 1 - (1 - K/N)^M (M = N tasks, K servers sampled, 5 by default). Right: the top 10"
        + " points enlarged.";
  }

  @Override
  public List<String> suites() {
    return List.of(ScatterSimFigures.SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    return ScatterSimFigures.has(results, METRIC);
  }

  @Override
  public BufferedImage draw(Results results) {
    List<Double> n = ScatterSimFigures.scales(results);
    return Charts.panels(
        "Pool utilization when the first allocation is refused, vs number of sponge servers",
        List.of(panel(results, n, 0, "all policies"), panel(results, n, 90, "enlarged: 90-100%")),
        String.format(
            Locale.ROOT,
            "M = N spilling tasks, K = %s, window = %s stores per task, %s free chunks per server,"
                + " tracker list republished every %s rounds; median of the seeds.",
            ScatterSimFigures.param(results, "sample_size"),
            ScatterSimFigures.param(results, "window"),
            ScatterSimFigures.param(results, "capacity_chunks"),
            ScatterSimFigures.param(results, "stale_rounds")));
  }

  private static BufferedImage panel(Results results, List<Double> n, double yMin, String what) {
    CategoryChart chart =
        Charts.categoryLines(
            "Utilization at the first refused store (" + what + ")",
            "sponge servers N (each step about x3.2)",
            "% of the pool's chunks in use",
            Charts.WIDTH,
            Charts.HEIGHT);
    chart.getStyler().setYAxisMin(yMin);
    chart.getStyler().setYAxisMax(100.0);
    chart.getStyler().setDecimalPattern("#,##0.#");
    List<String> x = ScatterSimFigures.labels(n);
    CategorySeries bound =
        chart.addSeries(
            "bound U = 1 - (1 - K/N)^M",
            x,
            Charts.gaps(ScatterSimFigures.medians(results, BATCH, "bound_u_pct", n)));
    bound.setLineColor(Charts.BOUND);
    bound.setMarker(SeriesMarkers.NONE);
    bound.setLineStyle(new BasicStroke(3f));
    CategorySeries batch =
        chart.addSeries(
            "batch sampling (Scatter)",
            x,
            Charts.gaps(ScatterSimFigures.medians(results, BATCH, METRIC, n)));
    batch.setLineColor(Charts.PLUGIN);
    batch.setMarkerColor(Charts.PLUGIN);
    batch.setMarker(SeriesMarkers.CIRCLE);
    List<Double> free = ScatterSimFigures.medians(results, FREE_LIST, METRIC, n);
    if (yMin <= 0) {
      CategorySeries f = chart.addSeries("free list (the paper)", x, Charts.gaps(free));
      f.setLineColor(Charts.STOCK);
      f.setMarkerColor(Charts.STOCK);
      f.setMarker(SeriesMarkers.SQUARE);
    }
    return Charts.image(chart);
  }
}
