package dev.levee.bench.report;

import dev.levee.bench.results.Measurement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns result lines into {@code REPORT.md} plus PNG charts, in one directory: one chart per suite
 * and metric that at least two result groups share (a bar chart of one bar compares nothing; such
 * metrics stay in the tables).
 */
public final class ReportWriter {
  public static final String REPORT_FILE = "REPORT.md";

  private ReportWriter() {}

  /** Writes the report and charts and returns the Markdown. */
  public static String write(List<Measurement> measurements, Path outDir) throws IOException {
    Files.createDirectories(outDir);
    StringBuilder md = new StringBuilder("# Levee benchmark results\n\n");
    md.append(
        "Medians over repeated runs; spread is min..max. Regenerate with `BenchMain report`.\n\n");
    if (measurements.isEmpty()) {
      md.append("No results yet.\n");
    }
    for (Map.Entry<String, List<Measurement>> e : MarkdownReport.bySuite(measurements).entrySet()) {
      List<ResultGroup> groups = ResultGroup.group(e.getValue());
      Map<String, Integer> groupsPerMetric = new TreeMap<>();
      groups.forEach(
          g -> g.values().keySet().forEach(m -> groupsPerMetric.merge(m, 1, Integer::sum)));
      List<String> metrics =
          groupsPerMetric.entrySet().stream()
              .filter(m -> m.getValue() > 1)
              .map(Map.Entry::getKey)
              .toList();
      List<String> charts = new ArrayList<>();
      for (String metric : metrics) {
        charts.add(ChartWriter.write(e.getKey(), metric, groups, outDir).getFileName().toString());
      }
      md.append(MarkdownReport.suiteSection(e.getKey(), e.getValue(), charts));
    }
    Files.writeString(outDir.resolve(REPORT_FILE), md.toString(), StandardCharsets.UTF_8);
    return md.toString();
  }
}
