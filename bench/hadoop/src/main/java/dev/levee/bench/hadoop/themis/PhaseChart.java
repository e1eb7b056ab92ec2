package dev.levee.bench.hadoop.themis;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;

/**
 * The paper's Fig. 9 for this machine: each workload's phase throughput per variant against the
 * disk. The workloads move very different bytes per input byte (WordCount's shuffle is 1% of its
 * input, 5-grams' 4x), so one MB/s axis cannot hold all their disk lines: with physical-limits
 * results each bar is the phase's share of the disk bound (the time the disk needs to read and
 * write the phase's bytes once, over the phase's time) and the disk is the 100% line; without them,
 * MB of input per second.
 */
final class PhaseChart {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  private PhaseChart() {}

  static Path write(
      Map<String, Map<ShuffleVariant, List<ThemisSuite.RunResult>>> results,
      DiskBandwidth disk,
      String conditions,
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
            .title("Phase throughput on 2 cores, one disk (median): " + conditions)
            .xAxisTitle("workload and phase (1: read input, write intermediate; 2: the rest)")
            .yAxisTitle(disk == null ? "MB of input per second" : "% of the disk bound")
            .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setLabelsFontColor(Color.BLACK);
    chart.getStyler().setDecimalPattern("#,##0.0");
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setOverlapped(false);
    ToDoubleFunction<ThemisSuite.RunResult> phase1 =
        disk == null
            ? ThemisSuite.RunResult::phase1MbPerS
            : r -> 100 * r.phase1DiskSeconds() / r.phases().mapSeconds();
    ToDoubleFunction<ThemisSuite.RunResult> phase2 =
        disk == null
            ? ThemisSuite.RunResult::phase2MbPerS
            : r -> 100 * r.phase2DiskSeconds() / r.phases().reduceSeconds();
    for (ShuffleVariant v : RatioTable.present(results)) {
      List<Double> y = new ArrayList<>();
      for (var byVariant : results.values()) {
        List<ThemisSuite.RunResult> runs = byVariant.get(v);
        y.add(orZero(RatioTable.median(runs, phase1)));
        y.add(orZero(RatioTable.median(runs, phase2)));
      }
      chart.addSeries(v.label, categories, y).setFillColor(v.colour);
    }
    if (disk != null) {
      CategorySeries line =
          chart.addSeries(
              String.format(
                  java.util.Locale.ROOT,
                  "disk bound (100%%): each phase's bytes read once at %.0f MB/s and written once"
                      + " at %.0f MB/s on one disk; the goal is 80%%",
                  disk.readMbPerS(),
                  disk.writeMbPerS()),
              categories,
              categories.stream().map(c -> 100.0).toList());
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
