package dev.levee.bench.hadoop.themis;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.style.Styler;

/**
 * The paper's Fig. 9 for this machine: each phase's throughput (MB of records sorted per second)
 * per variant, beside the most one disk allows a phase that reads and writes every byte once.
 */
final class PhaseChart {
  static {
    System.setProperty("java.awt.headless", "true");
  }

  private PhaseChart() {}

  static Path write(
      Map<ShuffleVariant, List<ThemisSuite.RunResult>> results,
      DiskBandwidth disk,
      long records,
      Path file)
      throws IOException {
    List<String> phases =
        List.of(
            "phase 1: read input, write intermediate", "phase 2: read intermediate, write output");
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(1000)
            .height(600)
            .title(
                String.format(
                    Locale.ROOT,
                    "Sort of %,d 100-byte records on 2 cores, one disk: phase throughput (median)",
                    records))
            .xAxisTitle("phase")
            .yAxisTitle("MB sorted per second")
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
      List<ThemisSuite.RunResult> runs = results.get(v);
      if (runs == null || runs.isEmpty()) {
        continue;
      }
      List<Double> y = new ArrayList<>();
      y.add(RatioTable.median(runs, ThemisSuite.RunResult::phase1MbPerS));
      y.add(RatioTable.median(runs, ThemisSuite.RunResult::phase2MbPerS));
      chart.addSeries(v.label, phases, y).setFillColor(colours[v.ordinal()]);
    }
    if (disk != null) {
      double bound = disk.phaseBound();
      CategorySeries line =
          chart.addSeries(
              String.format(
                  Locale.ROOT,
                  "disk bound: read %.0f + write %.0f MB/s on one disk = %.0f MB/s",
                  disk.readMbPerS(),
                  disk.writeMbPerS(),
                  bound),
              phases,
              List.of(bound, bound));
      line.setChartCategorySeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
      line.setLineColor(Color.RED);
      line.setMarkerColor(Color.RED);
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
