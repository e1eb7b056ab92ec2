package dev.levee.bench.hadoop.piranha;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.ResultGroup;
import dev.levee.bench.report.Summary;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.CategoryChart;

/**
 * Wall seconds of every arm, one bar per (workload, arm): median over the interleaved rounds, the
 * whisker spanning min..max. Stock arms (chained MapReduce, stock Pig, the empty map-only floor)
 * are drawn in the house stock colour, Piranha's in the plugin colour, so the comparison reads
 * without a legend.
 */
final class SecondsChart {
  static final String FILE = "piranha-seconds.png";
  private static final int FEW_BARS = 8;

  private SecondsChart() {}

  /** "top-k-words: chained-mapreduce" rather than every parameter of the group. */
  private static String shortLabel(ResultGroup g) {
    String label = g.paramsLabel();
    int q = label.indexOf("query=");
    String query = q < 0 ? label : label.substring(q + "query=".length()).split(",")[0].trim();
    return query + ": " + g.variant();
  }

  static BufferedImage draw(List<ResultGroup> groups) {
    long bars = groups.stream().filter(g -> g.summary("seconds") != null).count();
    String title = "Piranha vs stock: wall seconds per arm (median, whiskers min..max)";
    CategoryChart chart;
    if (bars > FEW_BARS) {
      // Slanted labels of the leftmost bars would run off the image: stand them upright.
      chart = Charts.bars(title, "workload / arm", "seconds", 1400, 900);
      chart.getStyler().setXAxisLabelRotation(90);
    } else {
      chart = Charts.bars(title, "workload / arm", "seconds");
      chart.getStyler().setXAxisLabelRotation(15);
    }
    chart.getStyler().setDecimalPattern("0");
    chart.getStyler().setLabelsVisible(false);
    for (boolean piranha : new boolean[] {false, true}) {
      List<String> labels = new ArrayList<>();
      List<Double> medians = new ArrayList<>();
      List<Double> spread = new ArrayList<>();
      for (ResultGroup g : groups) {
        Summary s = g.summary("seconds");
        if (s == null) {
          continue;
        }
        // The median goes into the category label: XChart would print a "0.0" value label under
        // every bar of the other series.
        labels.add(String.format(java.util.Locale.ROOT, "%s (%.1f s)", shortLabel(g), s.median()));
        boolean isPiranha =
            g.variant().contains("piranha")
                || g.variant().startsWith("fused")
                || g.variant().startsWith("kept");
        medians.add(isPiranha == piranha ? s.median() : 0.0);
        spread.add(
            isPiranha == piranha ? Math.max(s.max() - s.median(), s.median() - s.min()) : 0.0);
      }
      chart
          .addSeries(piranha ? "Piranha" : "stock", labels, medians, spread)
          .setFillColor(piranha ? Charts.PLUGIN : Charts.STOCK);
    }
    chart.getStyler().setOverlapped(true);
    return Charts.image(chart);
  }
}
