package dev.levee.bench.hadoop.piranha;

import dev.levee.bench.report.ResultGroup;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The paper's Figs 7-8 for one query: a stacked bar per arm, median seconds per phase. For the
 * chain, a phase is one MapReduce job; for Piranha, one stage on the critical path, counted from
 * the moment its input was complete, plus "other" (ApplicationMaster, scheduling, JVM start,
 * commit).
 */
final class BreakdownChart {
  static final String PREFIX = "stage.";
  static final String FILE = "piranha-breakdown";

  private BreakdownChart() {}

  static Path write(String query, List<ResultGroup> groups, Path file) throws IOException {
    System.setProperty("java.awt.headless", "true");
    List<ResultGroup> arms = new ArrayList<>();
    Set<String> phases = new LinkedHashSet<>();
    for (ResultGroup g : groups) {
      boolean any = false;
      for (String metric : g.values().keySet()) {
        if (metric.startsWith(PREFIX)) {
          any = true;
          if (!metric.equals(PREFIX + "other")) {
            phases.add(metric);
          }
        }
      }
      if (any) {
        arms.add(g);
      }
    }
    phases.add(PREFIX + "other");
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(1000)
            .height(600)
            .title("piranha: where the time of " + query + " goes (median seconds per phase)")
            .xAxisTitle("arm")
            .yAxisTitle("seconds")
            .build();
    chart.getStyler().setStacked(true);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setYAxisMin(0.0);
    List<String> names = arms.stream().map(ResultGroup::variant).toList();
    for (String phase : phases) {
      List<Double> y = new ArrayList<>();
      for (ResultGroup g : arms) {
        y.add(g.summary(phase) == null ? 0.0 : g.summary(phase).median());
      }
      if (y.stream().anyMatch(v -> v > 0)) {
        chart.addSeries(phase.substring(PREFIX.length()), names, y);
      }
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }
}
