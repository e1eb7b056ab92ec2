package dev.levee.bench.report.figures;

import dev.levee.bench.demo.DemoTable;
import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

/**
 * What {@code ./levee demo} showed in its latest run: one panel per module, its headline workload
 * stock vs plugin in wall-clock seconds. Panels have their own scale, since a Hadoop job and a
 * Spark job take different times; the plugin/stock ratio is in each panel's axis title.
 */
public final class DemoFigure implements Figure {
  static final List<String> SUITES = List.of("demo-hadoop", "demo-spark");
  private static final int PANEL_WIDTH = 700;
  private static final int PANEL_HEIGHT = 600;

  /** Legend names per module: what stock is and what the plugin is. */
  private static final Map<String, String[]> NAMES =
      Map.of(
          "spongefiles-hadoop", new String[] {"stock Hadoop", "SpongeFiles"},
          "leaky-buffer-spark", new String[] {"stock Spark (sort shuffle)", "leaky buffer shuffle"},
          "piranha-dag", new String[] {"stock", "Piranha"},
          "themis-shuffle", new String[] {"stock", "Themis"},
          "hurricane-spark", new String[] {"stock Spark", "Hurricane (clones at run time)"});

  @Override
  public String file() {
    return "demo-stock-vs-plugin.png";
  }

  @Override
  public String caption() {
    return "The latest `./levee demo` run: each module's headline workload, stock (grey) vs the"
        + " Levee plugin (blue), wall-clock seconds, on the same generated data; each panel has"
        + " its own scale and names the plugin/stock ratio and whether the outputs agreed.";
  }

  @Override
  public List<String> suites() {
    return SUITES;
  }

  @Override
  public boolean canDraw(Results results) {
    return !latestRunLines(results).isEmpty();
  }

  @Override
  public List<Measurement> drawnFrom(Results results) {
    return latestRunLines(results);
  }

  @Override
  public BufferedImage draw(Results results) {
    List<Measurement> lines = latestRunLines(results);
    String runId = runId(lines.get(0));
    Map<String, List<Measurement>> byModule = new LinkedHashMap<>();
    for (String module : DemoTable.MODULES) {
      List<Measurement> rows =
          lines.stream()
              .filter(m -> module.equals(String.valueOf(m.params().get(DemoTable.MODULE))))
              .toList();
      if (!rows.isEmpty()) {
        byModule.put(module, rows);
      }
    }
    List<BufferedImage> panels = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    byModule.forEach(
        (module, rows) -> {
          panels.add(panel(module, rows));
          notes.add(module + ": " + workloadNote(rows));
        });
    notes.add(
        "Machine: "
            + lines.get(0).machine().getOrDefault("cores", "?")
            + " cores, "
            + String.format(
                Locale.ROOT,
                "%.0f GB",
                ((Number) lines.get(0).machine().getOrDefault("memory_bytes", 0)).doubleValue()
                    / 1e9)
            + "; every run on the same generated data; lower is better.");
    // Three panels a row: five modules side by side made a strip too wide to read.
    return Charts.panels(
        "./levee demo, run " + runId + ": stock vs Levee plugin per module", panels, notes, 3);
  }

  /** The workload in full and whether the outputs agreed, for the notes under the panels. */
  private static String workloadNote(List<Measurement> rows) {
    String workload = String.valueOf(rows.get(0).params().getOrDefault(DemoTable.WORKLOAD, "-"));
    String same =
        rows.stream()
            .filter(m -> m.variant().equals(DemoTable.PLUGIN))
            .map(m -> String.valueOf(m.params().getOrDefault(DemoTable.SAME_OUTPUT, "-")))
            .findFirst()
            .orElse("-");
    Object condition = rows.get(0).params().get(DemoTable.CONDITION);
    return workload
        + (condition == null ? "" : " (" + condition + ")")
        + "; same output as stock: "
        + same
        + ".";
  }

  private static BufferedImage panel(String module, List<Measurement> rows) {
    Summary stock = seconds(rows, Measurement.STOCK);
    Summary plugin = seconds(rows, DemoTable.PLUGIN);
    String workload = String.valueOf(rows.get(0).params().getOrDefault(DemoTable.WORKLOAD, "-"));
    String ratio =
        stock != null && plugin != null
            ? String.format(Locale.ROOT, "plugin/stock %.2f", plugin.median() / stock.median())
            : "no plugin run";
    CategoryChart chart =
        Charts.bars(
            module + ": " + ratio,
            "workload and outputs: see the notes below",
            "job wall-clock seconds",
            PANEL_WIDTH,
            PANEL_HEIGHT);
    Charts.headroom(
        chart, Math.max(stock == null ? 0 : stock.median(), plugin == null ? 0 : plugin.median()));
    chart.getStyler().setDecimalPattern("#,##0.0");
    chart.getStyler().setAvailableSpaceFill(0.55);
    chart.getStyler().setChartTitleFont(chart.getStyler().getChartTitleFont().deriveFont(16f));
    // The category names the job; the x-axis title holds the rest of the workload.
    List<String> category = List.of(shortWorkload(workload));
    String[] names = NAMES.getOrDefault(module, new String[] {"stock", "Levee plugin"});
    if (stock != null) {
      CategorySeries s = chart.addSeries(names[0], category, List.of(stock.median()));
      s.setFillColor(Charts.STOCK);
    }
    if (plugin != null) {
      CategorySeries p = chart.addSeries(names[1], category, List.of(plugin.median()));
      p.setFillColor(Charts.PLUGIN);
    }
    return Charts.image(chart);
  }

  /**
   * The workload up to its first ", " outside parentheses, which names the job: "median of
   * 10,000,000 numbers", "Pig top-10 words of 200,000 web records (GROUP, COUNT, ORDER ... LIMIT)".
   */
  static String shortWorkload(String workload) {
    int depth = 0;
    for (int i = 0; i < workload.length() - 1; i++) {
      char c = workload.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth = Math.max(0, depth - 1);
      } else if (depth == 0 && c == ',' && workload.charAt(i + 1) == ' ') {
        return workload.substring(0, i);
      }
    }
    return workload;
  }

  private static Summary seconds(List<Measurement> rows, String variant) {
    List<Double> v =
        rows.stream()
            .filter(m -> m.variant().equals(variant))
            .map(m -> m.metrics().get(DemoTable.SECONDS))
            .filter(Objects::nonNull)
            .toList();
    return v.isEmpty() ? null : Summary.of(v);
  }

  /** The lines of the demo run with the greatest run id (ids are demo-<UTC timestamp>). */
  static List<Measurement> latestRunLines(Results results) {
    List<Measurement> all = new ArrayList<>();
    SUITES.forEach(s -> all.addAll(results.of(s)));
    String latest =
        all.stream()
            .map(DemoFigure::runId)
            .filter(Objects::nonNull)
            .max(Comparator.naturalOrder())
            .orElse(null);
    return latest == null
        ? List.of()
        : all.stream()
            .filter(m -> latest.equals(runId(m)))
            .filter(m -> m.metrics().containsKey(DemoTable.SECONDS))
            .toList();
  }

  private static String runId(Measurement m) {
    Object id = m.params().get(DemoTable.RUN_ID);
    return id == null ? null : id.toString();
  }
}
