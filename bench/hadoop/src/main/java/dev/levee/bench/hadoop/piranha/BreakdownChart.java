package dev.levee.bench.hadoop.piranha;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.ResultGroup;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;
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

  static BufferedImage draw(String query, List<ResultGroup> groups) {
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
    List<String> ordered = new ArrayList<>(phases);
    // Job by job, map before reduce: the stack reads as the query runs.
    ordered.sort(Comparator.comparingInt(BreakdownChart::jobOf).thenComparing(p -> p));
    phases = new LinkedHashSet<>(ordered);
    phases.add(PREFIX + "other");
    CategoryChart chart =
        Charts.bars(
            "Piranha: where the time of " + query + " goes",
            "arm (chain: one phase per MapReduce job; Piranha: one per critical-path stage)",
            "median seconds per phase",
            1200,
            650);
    chart.getStyler().setStacked(true);
    chart.getStyler().setLabelsVisible(false);
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
    chart.getStyler().setYAxisMin(0.0);
    List<String> names = arms.stream().map(g -> armName(g.variant())).toList();
    int chainJobs = 0;
    for (String phase : phases) {
      List<Double> y = new ArrayList<>();
      for (ResultGroup g : arms) {
        y.add(g.summary(phase) == null ? 0.0 : g.summary(phase).median());
      }
      if (y.stream().anyMatch(v -> v > 0)) {
        String name = phase.substring(PREFIX.length());
        CategorySeries series =
            chart.addSeries(
                name.equals("other") ? "other (AM, containers, JVM starts, commit)" : name,
                names,
                y);
        // The chain's jobs in greys; Piranha's stages one hue per job, the map side dark and the
        // reduce side light; fixed costs pale.
        series.setFillColor(
            name.equals("other")
                ? OTHER
                : name.startsWith("job") ? shade(Charts.STOCK, chainJobs++) : stageColour(name));
      }
    }
    return Charts.image(chart);
  }

  private static final Color OTHER = new Color(0xe3, 0xe3, 0xe3);

  /** Per job: the map side's colour, then the reduce side's (blue, green, purple, brown). */
  private static final Color[][] JOB_COLOURS = {
    {Charts.PLUGIN, new Color(0xae, 0xc7, 0xe8)},
    {new Color(0x2c, 0xa0, 0x2c), new Color(0x98, 0xdf, 0x8a)},
    {new Color(0x94, 0x67, 0xbd), new Color(0xc5, 0xb0, 0xd5)},
    {new Color(0x8c, 0x56, 0x4b), new Color(0xc4, 0x9c, 0x94)},
  };

  private static final Pattern STAGE = Pattern.compile("^\\D*(\\d+)_(map|reduce)\\b.*");

  /** "stage.j2_map" -> 2; 0 for a phase not named after a job. */
  static int jobOf(String phase) {
    Matcher m = STAGE.matcher(phase.substring(PREFIX.length()));
    return m.matches() ? Integer.parseInt(m.group(1)) : 0;
  }

  static Color stageColour(String stage) {
    Matcher m = STAGE.matcher(stage);
    if (!m.matches()) {
      return Charts.PLUGIN;
    }
    Color[] job = JOB_COLOURS[(Integer.parseInt(m.group(1)) - 1) % JOB_COLOURS.length];
    return m.group(2).equals("map") ? job[0] : job[1];
  }

  /** "chained-mapreduce" -> "chain", "piranha-fused-none" -> "fused, none": short enough to fit. */
  static String armName(String variant) {
    if (variant.equals("chained-mapreduce")) {
      return "chained MapReduce";
    }
    return variant.replaceFirst("^piranha-", "").replace('-', ',').replace(",", ", ");
  }

  private static Color shade(Color base, int i) {
    Color c = base;
    for (int k = 0; k < i; k++) {
      c = c.darker();
    }
    return c;
  }
}
