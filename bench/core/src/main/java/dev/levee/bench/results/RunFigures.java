package dev.levee.bench.results;

import dev.levee.bench.SuiteContext;
import dev.levee.bench.report.FigureRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where a suite that draws its own figures (rather than through a registered {@code Figure}) puts
 * them: the run directory's {@code figures/}, never the committed results, so that a benchmark run
 * leaves {@code git status} clean. {@link RunPublisher} copies them into the committed figures.
 */
public final class RunFigures {
  private RunFigures() {}

  /** {@code option} if the user named a directory, else {@code <results dir>/figures}; created. */
  public static Path dir(SuiteContext context, String option) throws IOException {
    Path dir =
        option == null || option.isBlank()
            ? context.store().dir().resolve(FigureRegistry.FIGURES_DIR)
            : Path.of(option).toAbsolutePath();
    Files.createDirectories(dir);
    return dir;
  }
}
