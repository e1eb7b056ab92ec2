package dev.levee.bench.results;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the repository root is, so that {@code bench/results} resolves the same from any working
 * directory.
 */
public final class RepoLayout {
  public static final String DEFAULT_RESULTS = "bench/results";

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

  public static Path defaultResultsDir() {
    return repoRoot(Path.of("")).resolve(DEFAULT_RESULTS);
  }
}
