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

  /**
   * The variant a row may add as its yardstick: the stock job given what makes the plugin's problem
   * go away (for SpongeFiles, a reducer heap that never spills). Shown in the note, with the share
   * of the gap between stock and it that the plugin closes.
   */
  public static final String BOUND = "bound";

  /** A bound row's own words for what it is, e.g. "no-spill bound (reducer heap 700 MB)". */
  public static final String BOUND_LABEL = "bound_label";

  /** Words on the condition the row ran in, e.g. "2 disk readers at 180 MB/s". */
  public static final String CONDITION = "condition";

  /** Table order: the modules as the README lists them. */
  public static final List<String> MODULES =
      List.of(
          "spongefiles-hadoop",
          "leaky-buffer-spark",
          "piranha-dag",
          "themis-shuffle",
          "hurricane-spark");

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
    List<String> notes = new ArrayList<>();
    if (!MEASURED.equals(status)) {
      notes.add(status);
    }
    Object condition = first.params().get(CONDITION);
    if (condition != null) {
      notes.add(String.valueOf(condition));
    }
    long runs = rows.stream().filter(m -> m.variant().equals(PLUGIN)).count();
    if (runs > 1) {
      notes.add("medians of " + runs + " runs");
    }
    Double bound = median(rows, BOUND);
    if (bound != null) {
      String label =
          rows.stream()
              .filter(m -> m.variant().equals(BOUND))
              .map(m -> String.valueOf(m.params().getOrDefault(BOUND_LABEL, "bound")))
              .findFirst()
              .orElse("bound");
      String note = label + " " + seconds(bound) + " s";
      if (stock != null && plugin != null && stock > bound) {
        note += gapNote(stock, plugin, bound);
      }
      notes.add(note);
    }
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
        + String.join("; ", notes)
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

  /** Differences within this share of the bound are run-to-run noise on the demo's machine. */
  static final double NOISE = 0.05;

  /**
   * How much of stock's gap to the bound the plugin removes. A plugin within noise of the bound (or
   * past it) is said to be so: a share above 100% would only measure the noise.
   */
  static String gapNote(double stock, double plugin, double bound) {
    if (Math.abs(plugin - bound) <= NOISE * bound) {
      return String.format(
          Locale.ROOT,
          "; the plugin is within noise of it (%.0f%% apart): stock's whole gap removed",
          100 * Math.abs(plugin - bound) / bound);
    }
    if (plugin < bound) {
      return String.format(
          Locale.ROOT,
          "; the plugin is %.0f%% faster than it: stock's whole gap removed",
          100 * (bound - plugin) / bound);
    }
    return String.format(
        Locale.ROOT,
        "; the plugin removes %.0f%% of stock's gap to it",
        100 * (stock - plugin) / (stock - bound));
  }
}
