package dev.levee.bench.hadoop.themis;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;

/**
 * The paper's Fig. 9 for this machine: each workload's phase throughput (MB of input processed per
 * second) per variant, beside the most one disk allows that phase: reading and writing its bytes
 * once at physical-limits' speeds, in the same unit.
 */
final class PhaseChart {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  private PhaseChart() {}

  static Path write(
      Map<String, Map<ShuffleVariant, List<ThemisSuite.RunResult>>> results,
      DiskBandwidth disk,
      boolean cachesDropped,
      Path file)
      throws IOException {
    List<String> categories = new ArrayList<>();
    for (String workload : results.keySet()) {
      categories.add(workload + " phase 1");
      categories.add(workload + " phase 2");
    }
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(Math.max(1000, 170 * categories.size()))
            .height(600)
            .title(
                "Themis workloads on 2 cores, one disk: phase throughput (median)"
                    + (cachesDropped ? ", page cache dropped" : ""))
            .xAxisTitle("workload and phase (1: read input, write intermediate; 2: the rest)")
            .yAxisTitle("MB of input per second")
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setLabelsFontColor(Color.BLACK);
    chart.getStyler().setDecimalPattern("#,##0.0");
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setOverlapped(false);
    Color[] colours = {new Color(0x9E9E9E), new Color(0x5B8DB8), new Color(0xD9822B)};
    for (ShuffleVariant v : ShuffleVariant.values()) {
      List<Double> y = new ArrayList<>();
      for (var byVariant : results.values()) {
        List<ThemisSuite.RunResult> runs = byVariant.get(v);
        y.add(orZero(RatioTable.median(runs, ThemisSuite.RunResult::phase1MbPerS)));
        y.add(orZero(RatioTable.median(runs, ThemisSuite.RunResult::phase2MbPerS)));
      }
      chart.addSeries(v.label, categories, y).setFillColor(colours[v.ordinal()]);
    }
    if (disk != null) {
      List<Double> bound = new ArrayList<>();
      for (var byVariant : results.values()) {
        // The disk line from Themis's bytes (one write and read of the intermediate data).
        List<ThemisSuite.RunResult> runs = byVariant.get(ShuffleVariant.THEMIS);
        bound.add(orZero(RatioTable.median(runs, ThemisSuite.RunResult::phase1BoundMbPerS)));
        bound.add(orZero(RatioTable.median(runs, ThemisSuite.RunResult::phase2BoundMbPerS)));
      }
      CategorySeries line =
          chart.addSeries(
              String.format(
                  java.util.Locale.ROOT,
                  "disk bound: each phase's bytes read once at %.0f MB/s and written once at"
                      + " %.0f MB/s on one disk",
                  disk.readMbPerS(),
                  disk.writeMbPerS()),
              categories,
              bound);
      line.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
      line.setLineColor(Color.RED);
      line.setMarkerColor(Color.RED);
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  private static double orZero(double v) {
    return Double.isNaN(v) ? 0 : v;
  }
}
