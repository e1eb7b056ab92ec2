package dev.levee.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The report's figures, by file name: every {@link Figure} listed in a {@code
 * META-INF/services/dev.levee.bench.report.Figure} on the classpath, plus any added explicitly.
 */
public final class FigureRegistry {
  /** Where figures go, relative to the report's directory. */
  public static final String FIGURES_DIR = "figures";

  private static final Pattern FILE = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*\\.png");

  private final Map<String, Figure> byFile;

  private FigureRegistry(Map<String, Figure> byFile) {
    this.byFile = byFile;
  }

  public static FigureRegistry empty() {
    return new FigureRegistry(new TreeMap<>());
  }

  public static FigureRegistry discover(ClassLoader loader) {
    FigureRegistry r = empty();
    for (Figure f : ServiceLoader.load(Figure.class, loader)) {
      r = r.with(f);
    }
    return r;
  }

  /**
   * A registry with {@code figure} added. Two figures writing one file, or a name that is not
   * {@code <suite>-<what>.png} in lower case, is a mistake in the figure, reported as such.
   */
  public FigureRegistry with(Figure figure) {
    String file = figure.file();
    if (!FILE.matcher(file).matches()) {
      throw new IllegalArgumentException(
          figure.getClass().getName()
              + ": figure file '"
              + file
              + "' must be <suite>-<what>.png in lower-case letters, digits and '-'");
    }
    Map<String, Figure> copy = new TreeMap<>(byFile);
    Figure previous = copy.put(file, figure);
    if (previous != null && previous.getClass() != figure.getClass()) {
      throw new IllegalStateException(
          "two figures write "
              + file
              + ": "
              + previous.getClass().getName()
              + " and "
              + figure.getClass().getName());
    }
    return new FigureRegistry(copy);
  }

  public List<Figure> all() {
    return Collections.unmodifiableList(new ArrayList<>(byFile.values()));
  }

  /** A figure drawn to a file. */
  public record Drawn(Figure figure, Path file) {}

  /**
   * Draws every figure whose data is present into {@code figuresDir}, in file-name order. A figure
   * that throws fails the report with the figure's name: a broken figure is a defect, not a gap.
   */
  public List<Drawn> drawAll(Results results, Path figuresDir) throws IOException {
    List<Drawn> drawn = new ArrayList<>();
    for (Figure f : byFile.values()) {
      if (!f.canDraw(results)) {
        continue;
      }
      Path file = figuresDir.resolve(f.file());
      try {
        Charts.write(
            Charts.stamped(f.draw(results), Charts.provenance(f.drawnFrom(results))), file);
      } catch (RuntimeException e) {
        throw new IllegalStateException("figure " + f.file() + " failed: " + e.getMessage(), e);
      }
      drawn.add(new Drawn(f, file));
    }
    return drawn;
  }
}
