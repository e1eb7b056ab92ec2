package dev.levee.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * One bar chart per (suite, metric), as PNG. When every variant ran the same workloads the bars are
 * grouped by workload with one colour per variant (stock next to plugin); otherwise each
 * variant/workload is its own bar. Bars are medians; error bars span min..max, drawn symmetric
 * around the median at the larger half-width, which XChart's category charts require, so they never
 * understate the spread.
 */
public final class ChartWriter {
  private static final int WIDTH = 1000;
  private static final int HEIGHT = 600;

  static {
    // Charts are rendered on servers and in CI without a display.
    System.setProperty("java.awt.headless", "true");
  }

  private ChartWriter() {}

  public static Path write(String suite, String metric, List<ResultGroup> groups, Path dir)
      throws IOException {
    List<ResultGroup> withMetric = groups.stream().filter(g -> g.summary(metric) != null).toList();
    if (withMetric.isEmpty()) {
      throw new IllegalArgumentException("no values of " + metric + " in " + suite);
    }
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(suite + ": " + metric + " (median, bars min..max)")
            .xAxisTitle("workload")
            .yAxisTitle(metric)
            .build();
    Styler.LegendPosition legend = Styler.LegendPosition.OutsideS;
    chart.getStyler().setLegendPosition(legend);
    chart.getStyler().setXAxisLabelRotation(groupsShareWorkloads(withMetric) ? 0 : 20);
    chart.getStyler().setErrorBarsColor(java.awt.Color.DARK_GRAY);
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setLabelsFontColor(java.awt.Color.BLACK);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setDecimalPattern(decimalPattern(withMetric, metric));

    if (groupsShareWorkloads(withMetric) && variants(withMetric).size() > 1) {
      List<String> workloads = new ArrayList<>(workloads(withMetric));
      for (String variant : variants(withMetric)) {
        List<Double> y = new ArrayList<>();
        List<Double> err = new ArrayList<>();
        for (String w : workloads) {
          Summary s =
              withMetric.stream()
                  .filter(g -> g.variant().equals(variant) && g.paramsLabel().equals(w))
                  .findFirst()
                  .orElseThrow()
                  .summary(metric);
          y.add(s.median());
          err.add(halfSpread(s));
        }
        chart.addSeries(variant, workloads, y, err);
      }
    } else {
      chart.getStyler().setLegendVisible(false);
      chart.setXAxisTitle("variant");
      List<String> labels = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      List<Double> err = new ArrayList<>();
      boolean variantNamesSuffice = variants(withMetric).size() == withMetric.size();
      for (ResultGroup g : withMetric) {
        Summary s = g.summary(metric);
        labels.add(variantNamesSuffice ? g.variant() : g.variant() + " [" + g.paramsLabel() + "]");
        y.add(s.median());
        err.add(halfSpread(s));
      }
      chart.addSeries(metric, labels, y, err);
    }
    Path file = dir.resolve(fileName(suite, metric));
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    return file;
  }

  public static String fileName(String suite, String metric) {
    return suite + "-" + metric.replaceAll("[^A-Za-z0-9_.-]", "_") + ".png";
  }

  /** Enough digits to tell bars apart, no more: 1,557 rather than 1,556.5512546868458. */
  private static String decimalPattern(List<ResultGroup> groups, String metric) {
    double largest =
        groups.stream().mapToDouble(g -> Math.abs(g.summary(metric).max())).max().orElse(0);
    if (largest >= 100) {
      return "#,##0";
    }
    return largest >= 1 ? "#,##0.00" : "0.####";
  }

  private static double halfSpread(Summary s) {
    return Math.max(s.max() - s.median(), s.median() - s.min());
  }

  private static boolean groupsShareWorkloads(List<ResultGroup> groups) {
    Map<String, Set<String>> byVariant = new LinkedHashMap<>();
    for (ResultGroup g : groups) {
      byVariant.computeIfAbsent(g.variant(), v -> new LinkedHashSet<>()).add(g.paramsLabel());
    }
    return byVariant.values().stream().distinct().count() == 1;
  }

  private static Set<String> variants(List<ResultGroup> groups) {
    Set<String> v = new LinkedHashSet<>();
    groups.forEach(g -> v.add(g.variant()));
    return v;
  }

  private static Set<String> workloads(List<ResultGroup> groups) {
    Set<String> w = new LinkedHashSet<>();
    groups.forEach(g -> w.add(g.paramsLabel()));
    return w;
  }
}
