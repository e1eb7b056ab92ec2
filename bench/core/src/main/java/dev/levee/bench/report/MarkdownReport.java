package dev.levee.bench.report;

import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Markdown tables of results: per suite, every variant and workload with the median and min..max of
 * each metric over its repetitions, then, where the suite has a {@value Measurement#STOCK} variant,
 * each other variant's median as a ratio of stock's on the same workload.
 */
public final class MarkdownReport {
  private MarkdownReport() {}

  /** Measurements grouped by suite, in first-seen order. */
  public static Map<String, List<Measurement>> bySuite(List<Measurement> all) {
    Map<String, List<Measurement>> m = new LinkedHashMap<>();
    all.forEach(x -> m.computeIfAbsent(x.suite(), s -> new ArrayList<>()).add(x));
    return m;
  }

  public static String suiteSection(
      String suite, List<Measurement> measurements, List<String> figureLinks) {
    List<ResultGroup> groups = ResultGroup.group(measurements);
    Set<String> metrics = new TreeSet<>();
    groups.forEach(g -> metrics.addAll(g.values().keySet()));
    StringBuilder b = new StringBuilder();
    b.append("## ").append(suite).append("\n\n");
    Measurement last = measurements.get(measurements.size() - 1);
    Set<String> revisions = new LinkedHashSet<>();
    measurements.forEach(m -> revisions.add(shortRevision(m.gitRevision())));
    b.append(measurements.size())
        .append(" measurements, last at ")
        .append(last.timestamp())
        .append(", revision ")
        .append(String.join(", ", revisions))
        .append(".  \n");
    b.append("Machine: ").append(machineLine(last.machine())).append(".  \n");
    b.append("Command: `").append(last.command()).append("`\n\n");

    b.append("| variant | workload | n |");
    metrics.forEach(m -> b.append(' ').append(m).append(" median (min..max) |"));
    b.append("\n|---|---|---:|");
    metrics.forEach(m -> b.append("---:|"));
    b.append('\n');
    for (ResultGroup g : groups) {
      int n = g.values().values().stream().mapToInt(List::size).max().orElse(0);
      b.append("| ")
          .append(g.variant())
          .append(" | ")
          .append(escape(g.paramsLabel()))
          .append(" | ")
          .append(n)
          .append(" |");
      for (String metric : metrics) {
        Summary s = g.summary(metric);
        b.append(' ')
            .append(
                s == null
                    ? ""
                    : number(s.median()) + " (" + number(s.min()) + ".." + number(s.max()) + ")")
            .append(" |");
      }
      b.append('\n');
    }
    b.append('\n');
    appendRatios(b, groups, metrics);
    if (!figureLinks.isEmpty()) {
      b.append("Figures: ");
      b.append(
          String.join(
              ", ",
              figureLinks.stream()
                  .map(l -> "[" + l.substring(l.lastIndexOf('/') + 1) + "](" + l + ")")
                  .toList()));
      b.append("\n\n");
    }
    return b.toString();
  }

  private static void appendRatios(StringBuilder b, List<ResultGroup> groups, Set<String> metrics) {
    Map<String, ResultGroup> stockByWorkload = new LinkedHashMap<>();
    for (ResultGroup g : groups) {
      if (Measurement.STOCK.equals(g.variant())) {
        stockByWorkload.put(g.paramsLabel(), g);
      }
    }
    List<String> rows = new ArrayList<>();
    for (ResultGroup g : groups) {
      ResultGroup stock = stockByWorkload.get(g.paramsLabel());
      if (stock == null || g == stock) {
        continue;
      }
      StringBuilder row =
          new StringBuilder("| ")
              .append(g.variant())
              .append(" | ")
              .append(escape(g.paramsLabel()))
              .append(" |");
      for (String metric : metrics) {
        Summary mine = g.summary(metric);
        Summary base = stock.summary(metric);
        row.append(' ')
            .append(
                mine == null || base == null || base.median() == 0
                    ? ""
                    : String.format(Locale.ROOT, "%.3f", mine.median() / base.median()))
            .append(" |");
      }
      rows.add(row.toString());
    }
    if (rows.isEmpty()) {
      return;
    }
    b.append("Ratios of medians, variant / stock, same workload:\n\n| variant | workload |");
    metrics.forEach(m -> b.append(' ').append(m).append(" / stock |"));
    b.append("\n|---|---|");
    metrics.forEach(m -> b.append("---:|"));
    b.append('\n');
    rows.forEach(r -> b.append(r).append('\n'));
    b.append('\n');
  }

  static String number(double v) {
    double a = Math.abs(v);
    if (a == 0) {
      return "0";
    }
    if (a >= 1e6 && a == Math.rint(a)) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (a >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (a >= 1) {
      return String.format(Locale.ROOT, "%.2f", v);
    }
    return String.format(Locale.ROOT, "%.3g", v);
  }

  private static String machineLine(Map<String, Object> machine) {
    Object mem = machine.get("memory_bytes");
    String memory =
        mem instanceof Number n
            ? String.format(Locale.ROOT, "%.1f GiB", n.doubleValue() / (1L << 30))
            : "?";
    return machine.getOrDefault("cpu_model", "?")
        + ", "
        + machine.getOrDefault("cores", "?")
        + " cores, "
        + memory
        + ", "
        + machine.getOrDefault("os", "?")
        + ", "
        + machine.getOrDefault("jvm", "?")
        + (machine.get("load_average_1m") instanceof Number load && load.doubleValue() >= 0
            ? String.format(Locale.ROOT, ", load average %.1f at start", load.doubleValue())
            : "");
  }

  private static String shortRevision(String rev) {
    if (rev == null) {
      return "unknown";
    }
    return rev.length() > 12 && rev.matches("[0-9a-f]{40}.*")
        ? rev.substring(0, 12) + rev.substring(40)
        : rev;
  }

  private static String escape(String cell) {
    return cell.replace("|", "\\|");
  }
}
