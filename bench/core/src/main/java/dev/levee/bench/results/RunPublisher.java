package dev.levee.bench.results;

import dev.levee.bench.report.FigureRegistry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Copies one run's results into the committed results directory: each {@code <suite>.jsonl} line
 * the target does not already hold is appended to the target's {@code <suite>.jsonl} (so history
 * accumulates, as when suites appended there directly, and publishing twice adds nothing), and the
 * run's {@code DEMO.md}, if any, replaces the committed one. The figures a suite drew into the
 * run's {@code figures/} replace the committed ones only when asked: a suite draws them from its
 * own run alone, so a narrow run (one arm, one memory size) would silently replace a committed
 * figure that shows a whole sweep. Lines are checked before anything is written: a malformed run
 * publishes nothing.
 */
public final class RunPublisher {
  /** Files besides the jsonl lines that a run publishes, replacing the committed copy. */
  public static final List<String> COPIED = List.of("DEMO.md");

  private RunPublisher() {}

  /**
   * Per suite, the number of lines appended; which other files were copied; and the run's own
   * figures left in the run because they were not asked for.
   */
  public record Published(
      Map<String, Integer> appendedLines, List<String> copied, List<String> figuresNotCopied) {
    public int total() {
      return appendedLines.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /** Publishes the run's lines and DEMO.md; its own figures only with {@code withFigures}. */
  public static Published publish(Path runDir, Path target, boolean withFigures)
      throws IOException {
    if (!Files.isDirectory(runDir)) {
      throw new IOException("no run directory " + runDir);
    }
    ResultsStore run = new ResultsStore(runDir);
    List<Path> files;
    try (Stream<Path> s = Files.list(runDir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList();
    }
    Map<Path, List<String>> toAppend = new LinkedHashMap<>();
    for (Path f : files) {
      run.read(f); // fails with file and line number on a malformed line, before any write
      Path dest = target.resolve(f.getFileName());
      Set<String> present =
          Files.isRegularFile(dest)
              ? new HashSet<>(trimmed(Files.readAllLines(dest, StandardCharsets.UTF_8)))
              : new HashSet<>();
      List<String> fresh = new ArrayList<>();
      for (String line : trimmed(Files.readAllLines(f, StandardCharsets.UTF_8))) {
        if (!line.isEmpty() && present.add(line)) {
          fresh.add(line);
        }
      }
      toAppend.put(dest, fresh);
    }
    Files.createDirectories(target);
    Map<String, Integer> appended = new LinkedHashMap<>();
    for (Map.Entry<Path, List<String>> e : toAppend.entrySet()) {
      String name = e.getKey().getFileName().toString();
      appended.put(name.substring(0, name.length() - ".jsonl".length()), e.getValue().size());
      if (!e.getValue().isEmpty()) {
        StringBuilder b = new StringBuilder();
        e.getValue().forEach(l -> b.append(l).append('\n'));
        Files.writeString(
            e.getKey(),
            b.toString(),
            StandardCharsets.UTF_8,
            StandardOpenOption.CREATE,
            StandardOpenOption.APPEND);
      }
    }
    List<String> copied = new ArrayList<>();
    for (String name : COPIED) {
      Path src = runDir.resolve(name);
      if (Files.isRegularFile(src)) {
        Files.copy(src, target.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        copied.add(name);
      }
    }
    // Figures a suite drew itself (RunFigures); the report redraws the registered ones afterwards.
    List<String> notCopied = new ArrayList<>();
    Path runFigures = runDir.resolve(FigureRegistry.FIGURES_DIR);
    if (Files.isDirectory(runFigures)) {
      Path targetFigures = target.resolve(FigureRegistry.FIGURES_DIR);
      try (Stream<Path> s = Files.list(runFigures)) {
        for (Path src : s.filter(Files::isRegularFile).sorted().toList()) {
          String name = FigureRegistry.FIGURES_DIR + "/" + src.getFileName();
          if (!withFigures) {
            notCopied.add(name);
            continue;
          }
          Files.createDirectories(targetFigures);
          Files.copy(
              src, targetFigures.resolve(src.getFileName()), StandardCopyOption.REPLACE_EXISTING);
          copied.add(name);
        }
      }
    }
    return new Published(appended, copied, notCopied);
  }

  private static List<String> trimmed(List<String> lines) {
    return lines.stream().map(String::trim).toList();
  }
}
