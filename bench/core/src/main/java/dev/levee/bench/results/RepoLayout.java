package dev.levee.bench.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Where things are in the repository, so that paths resolve the same from any working directory:
 * the committed results ({@value #DEFAULT_RESULTS}) and the git-ignored run directories ({@value
 * #RUNS}/&lt;run-id&gt;) that a demo or bench run writes to. A run never writes into the committed
 * results; {@code ./levee publish <run-id>} copies a run there on purpose.
 */
public final class RepoLayout {
  public static final String DEFAULT_RESULTS = "bench/results";

  /** Git-ignored (the repository's .gitignore ignores {@code .levee/}). */
  public static final String RUNS = ".levee/runs";

  private static final Pattern RUN_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private RepoLayout() {}

  /**
   * The nearest ancestor of {@code start} holding {@code bench/pom.xml}, or {@code start} itself.
   */
  public static Path repoRoot(Path start) {
    Path abs = start.toAbsolutePath().normalize();
    for (Path p = abs; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("bench/pom.xml"))
          && Files.isRegularFile(p.resolve("pom.xml"))) {
        return p;
      }
    }
    return abs;
  }

  /** The committed results of the repository holding the working directory. */
  public static Path defaultResultsDir() {
    return resultsDir(repoRoot(Path.of("")));
  }

  public static Path resultsDir(Path root) {
    return root.resolve(DEFAULT_RESULTS);
  }

  public static Path runsDir(Path root) {
    return root.resolve(RUNS);
  }

  /** A run's directory; the id is checked so that it cannot name a path outside the runs. */
  public static Path runDir(Path root, String runId) {
    if (!RUN_ID.matcher(runId).matches() || runId.contains("..")) {
      throw new IllegalArgumentException(
          "run id '"
              + runId
              + "' must be letters, digits, '.', '_' and '-' (e.g. demo-20260101T120000Z)");
    }
    return runsDir(root).resolve(runId);
  }

  /**
   * A new run id: {@code <prefix>-<UTC yyyyMMdd'T'HHmmss'Z'>}, e.g. {@code demo-20261122T030017Z}.
   */
  public static String newRunId(String prefix, Instant now) {
    return prefix + "-" + STAMP.format(now);
  }

  /**
   * The id of the most recent run: the greatest time stamp at the end of an id (ties and ids
   * without one by modification time).
   */
  public static Optional<String> latestRun(Path root) throws IOException {
    Path runs = runsDir(root);
    if (!Files.isDirectory(runs)) {
      return Optional.empty();
    }
    try (Stream<Path> s = Files.list(runs)) {
      List<Path> dirs = s.filter(Files::isDirectory).toList();
      return dirs.stream()
          .max(
              Comparator.comparing((Path p) -> stamp(p.getFileName().toString()))
                  .thenComparing(RepoLayout::modified))
          .map(p -> p.getFileName().toString());
    }
  }

  private static String stamp(String id) {
    int dash = id.lastIndexOf('-');
    String tail = dash < 0 ? "" : id.substring(dash + 1);
    return tail.matches("\\d{8}T\\d{6}Z") ? tail : "";
  }

  private static long modified(Path p) {
    try {
      return Files.getLastModifiedTime(p).toMillis();
    } catch (IOException e) {
      return 0;
    }
  }
}
