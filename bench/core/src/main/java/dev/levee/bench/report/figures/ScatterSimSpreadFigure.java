package dev.levee.bench.report.figures;

import static dev.levee.bench.report.figures.ScatterSimFigures.BATCH;
import static dev.levee.bench.report.figures.ScatterSimFigures.FREE_LIST;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import java.awt.image.BufferedImage;
import java.util.List;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Load spread and request traffic of both placement policies against the number of servers: the
 * fullest server over the mean when the pool is half full, and store requests (refusals included)
 * per chunk placed.
 */
public final class ScatterSimSpreadFigure implements Figure {
  @Override
  public String file() {
    return "scatter-sim-spread.png";
  }

  @Override
  public String caption() {
    return "Same simulation (`./levee bench scatter-sim`): left, the fullest server's chunks over the"
        + " mean when the pool is half full (1 = perfectly even); right, store requests sent per"
        + " chunk placed (1 = no refusal; each refusal is one more round trip). Tracker (ZooKeeper)"
        + " reads are one per spill file for both policies.";
  }

  @Override
  public List<String> suites() {
    return List.of(ScatterSimFigures.SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    return ScatterSimFigures.has(results, "max_over_mean_at_half");
  }

  @Override
  public BufferedImage draw(Results results) {
    List<Double> n = ScatterSimFigures.scales(results);
    return Charts.panels(
        "Load spread and store traffic vs number of sponge servers",
        List.of(
            panel(
                results,
                n,
                "max_over_mean_at_half",
                "Fullest server / mean, pool half full",
                "max / mean chunks per server"),
            panel(
                results,
                n,
                "store_requests_per_chunk",
                "Store requests per chunk placed",
                "requests per chunk (log scale)")),
        String.format(
            "M = N spilling tasks, K = %s; median of the seeds. Lower is better in both panels.",
            ScatterSimFigures.param(results, "sample_size")));
  }

  private static BufferedImage panel(
      Results results, List<Double> n, String metric, String title, String yTitle) {
    CategoryChart chart =
        Charts.categoryLines(
            title, "sponge servers N (each step about x3.2)", yTitle, Charts.WIDTH, Charts.HEIGHT);
    if (metric.equals("store_requests_per_chunk")) {
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
    } else {
      chart.getStyler().setYAxisMin(0.0);
    }
    chart.getStyler().setDecimalPattern("#,##0.##");
    List<String> x = ScatterSimFigures.labels(n);
    CategorySeries b =
        chart.addSeries(
            "batch sampling (Scatter)",
            x,
            Charts.gaps(ScatterSimFigures.medians(results, BATCH, metric, n)));
    b.setLineColor(Charts.PLUGIN);
    b.setMarkerColor(Charts.PLUGIN);
    b.setMarker(SeriesMarkers.CIRCLE);
    CategorySeries f =
        chart.addSeries(
            "free list (the paper)",
            x,
            Charts.gaps(ScatterSimFigures.medians(results, FREE_LIST, metric, n)));
    f.setLineColor(Charts.STOCK);
    f.setMarkerColor(Charts.STOCK);
    f.setMarker(SeriesMarkers.SQUARE);
    return Charts.image(chart);
  }
}
