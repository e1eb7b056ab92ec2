package dev.levee.bench.demo;

import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The one table {@code ./levee demo} prints: a row per Levee module, its headline workload, stock
 * and plugin wall-clock medians from this demo run, the ratio, and whether the outputs agreed. Rows
 * come only from measurements the demo suites recorded in this run; a module with no plugin yet
 * says so instead of showing a number.
 */
public final class DemoTable {
  /** Every demo measurement carries these params. */
  public static final String RUN_ID = "run_id";

  public static final String MODULE = "module";
  public static final String WORKLOAD = "workload";

  /** {@value #MEASURED} or why there is no plugin number ({@value #NOT_BUILT}). */
  public static final String STATUS = "status";

  /**
   * "yes" when the plugin's output equalled stock's on the same data; "-" when there was nothing to
   * compare.
   */
  public static final String SAME_OUTPUT = "same_output";

  public static final String MEASURED = "measured";
  public static final String NOT_BUILT = "not built yet";
  public static final String PLUGIN = "plugin";
  public static final String SECONDS = "seconds";

  /** Table order: the modules as the README lists them. */
  public static final List<String> MODULES =
      List.of("spongefiles-hadoop", "leaky-buffer-spark", "piranha-dag", "themis-shuffle");

  private DemoTable() {}

  public static String render(String runId, List<Measurement> all) {
    Map<String, List<Measurement>> byModule = new LinkedHashMap<>();
    MODULES.forEach(m -> byModule.put(m, new ArrayList<>()));
    for (Measurement m : all) {
      if (m.suite().startsWith("demo")
          && Objects.equals(String.valueOf(m.params().get(RUN_ID)), runId)) {
        byModule
            .computeIfAbsent(String.valueOf(m.params().get(MODULE)), k -> new ArrayList<>())
            .add(m);
      }
    }
    StringBuilder b = new StringBuilder();
    b.append(
        "| module | headline workload | stock s | plugin s | plugin/stock | same output | note |\n");
    b.append("|---|---|---:|---:|---:|---|---|\n");
    byModule.forEach((module, rows) -> b.append(row(module, rows)).append('\n'));
    return b.toString();
  }

  private static String row(String module, List<Measurement> rows) {
    if (rows.isEmpty()) {
      return "| " + module + " | - | - | - | - | - | " + NOT_BUILT + " |";
    }
    Measurement first = rows.get(0);
    Double stock = median(rows, Measurement.STOCK);
    Double plugin = median(rows, PLUGIN);
    String ratio =
        stock != null && plugin != null ? String.format(Locale.ROOT, "%.2f", plugin / stock) : "-";
    String same =
        rows.stream()
            .filter(m -> m.variant().equals(PLUGIN))
            .map(m -> String.valueOf(m.params().getOrDefault(SAME_OUTPUT, "-")))
            .findFirst()
            .orElse("-");
    String status = String.valueOf(first.params().getOrDefault(STATUS, MEASURED));
    return "| "
        + module
        + " | "
        + first.params().getOrDefault(WORKLOAD, "-")
        + " | "
        + seconds(stock)
        + " | "
        + (plugin == null ? status : seconds(plugin))
        + " | "
        + ratio
        + " | "
        + same
        + " | "
        + (MEASURED.equals(status) ? "" : status)
        + " |";
  }

  private static Double median(List<Measurement> rows, String variant) {
    List<Double> values =
        rows.stream()
            .filter(m -> m.variant().equals(variant))
            .map(m -> m.metrics().get(SECONDS))
            .filter(Objects::nonNull)
            .toList();
    return values.isEmpty() ? null : Summary.of(values).median();
  }

  private static String seconds(Double s) {
    return s == null ? "-" : String.format(Locale.ROOT, "%.1f", s);
  }
}
