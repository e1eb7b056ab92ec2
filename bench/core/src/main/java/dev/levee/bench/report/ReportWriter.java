package dev.levee.bench.report;

import dev.levee.bench.results.Measurement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Turns result lines into {@code REPORT.md} and the registered {@link Figure}s under {@code
 * figures/}, in one directory: the figures first (each with its caption), then per suite the tables
 * of every metric with links to the suite's figures.
 */
public final class ReportWriter {
  public static final String REPORT_FILE = "REPORT.md";

  private final FigureRegistry figures;

  public ReportWriter(FigureRegistry figures) {
    this.figures = figures;
  }

  /** The figures found on this class's class path. */
  public static ReportWriter withDiscoveredFigures() {
    return new ReportWriter(FigureRegistry.discover(ReportWriter.class.getClassLoader()));
  }

  /** Writes the report and its figures and returns the Markdown. */
  public String write(List<Measurement> measurements, Path outDir) throws IOException {
    Files.createDirectories(outDir);
    Results results = new Results(measurements);
    List<FigureRegistry.Drawn> drawn =
        figures.drawAll(results, outDir.resolve(FigureRegistry.FIGURES_DIR));
    StringBuilder md = new StringBuilder("# Levee benchmark results\n\n");
    md.append(
        "Medians over repeated runs; spread is min..max. Regenerate with `./levee report`;"
            + " raw lines are in `<suite>.jsonl`.\n\n");
    if (measurements.isEmpty()) {
      md.append("No results yet.\n");
    }
    if (!drawn.isEmpty()) {
      md.append("## Figures\n\n");
      for (FigureRegistry.Drawn d : drawn) {
        String link = link(d);
        md.append("### ").append(d.figure().file()).append("\n\n");
        md.append("![").append(d.figure().file()).append("](").append(link).append(")\n\n");
        md.append(d.figure().caption()).append("\n\n");
      }
    }
    for (Map.Entry<String, List<Measurement>> e : MarkdownReport.bySuite(measurements).entrySet()) {
      List<String> links =
          drawn.stream()
              .filter(d -> d.figure().suites().contains(e.getKey()))
              .map(ReportWriter::link)
              .toList();
      md.append(MarkdownReport.suiteSection(e.getKey(), e.getValue(), links));
    }
    Files.writeString(outDir.resolve(REPORT_FILE), md.toString(), StandardCharsets.UTF_8);
    return md.toString();
  }

  private static String link(FigureRegistry.Drawn d) {
    return FigureRegistry.FIGURES_DIR + "/" + d.figure().file();
  }
}
