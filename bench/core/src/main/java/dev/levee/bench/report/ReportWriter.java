package dev.levee.bench.report;

import dev.levee.bench.results.Measurement;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

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
    Map<String, List<Measurement>> bySuite = MarkdownReport.bySuite(measurements);
    Map<String, List<String>> suiteDrawn =
        suiteDrawn(outDir.resolve(FigureRegistry.FIGURES_DIR), drawn, bySuite.keySet());
    if (!suiteDrawn.isEmpty()) {
      md.append("## Figures drawn by their suites\n\n")
          .append(
              "Drawn by `./levee bench <suite> --figures` from the suite's own results, not by this"
                  + " report; each module's README shows them beside the text that explains them.\n\n");
      suiteDrawn.forEach(
          (suite, files) -> {
            md.append("- `").append(suite).append("`: ");
            md.append(
                String.join(
                    ", ",
                    files.stream()
                        .map(f -> "[" + f + "](" + FigureRegistry.FIGURES_DIR + "/" + f + ")")
                        .toList()));
            md.append("\n");
          });
      md.append("\n");
    }
    for (Map.Entry<String, List<Measurement>> e : bySuite.entrySet()) {
      List<String> links = new ArrayList<>();
      drawn.stream()
          .filter(d -> d.figure().suites().contains(e.getKey()))
          .map(ReportWriter::link)
          .forEach(links::add);
      suiteDrawn.getOrDefault(e.getKey(), List.of()).stream()
          .map(f -> FigureRegistry.FIGURES_DIR + "/" + f)
          .forEach(links::add);
      md.append(MarkdownReport.suiteSection(e.getKey(), e.getValue(), links));
    }
    Files.writeString(outDir.resolve(REPORT_FILE), md.toString(), StandardCharsets.UTF_8);
    return md.toString();
  }

  /**
   * The figures in {@code dir} that no report figure drew, by the suite whose name is the longest
   * prefix of the file's name ({@code sponge-fuzz-clients.png} is sponge-fuzz's); files of no known
   * suite are left out.
   */
  static Map<String, List<String>> suiteDrawn(
      Path dir, List<FigureRegistry.Drawn> drawn, Set<String> suites) throws IOException {
    Map<String, List<String>> out = new TreeMap<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    Set<String> byReport = drawn.stream().map(d -> d.figure().file()).collect(Collectors.toSet());
    try (Stream<Path> files = Files.list(dir)) {
      for (String f : files.map(p -> p.getFileName().toString()).sorted().toList()) {
        if (!f.endsWith(".png") || byReport.contains(f)) {
          continue;
        }
        suites.stream()
            .filter(s -> f.startsWith(s + "-"))
            .max(Comparator.comparingInt(String::length))
            .ifPresent(s -> out.computeIfAbsent(s, k -> new ArrayList<>()).add(f));
      }
    }
    return out;
  }

  private static String link(FigureRegistry.Drawn d) {
    return FigureRegistry.FIGURES_DIR + "/" + d.figure().file();
  }
}
