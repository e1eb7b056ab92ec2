package dev.levee.bench.report;

import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.util.List;

/**
 * One figure of the report: a picture a reader understands without the code, modelled on a figure
 * or table of the paper behind a module. A suite's engineer contributes figures for it; {@code
 * ./levee report} draws every registered figure whose data is present and writes it to {@code
 * bench/results/figures/}{@link #file()}.
 *
 * <p>To add one: implement this interface in bench-core's {@code dev.levee.bench.report.figures}
 * (the report runs on the Hadoop-side classpath, so a figure reads only result lines and uses only
 * XChart and {@link Charts}), and list the class in {@code
 * src/main/resources/META-INF/services/dev.levee.bench.report.Figure}. See {@code
 * bench/core/README.md}.
 */
public interface Figure {

  /**
   * The PNG's name, {@code <suite>-<what>.png} in lower case (e.g. {@code leaky-dmr-sweep.png}).
   */
  String file();

  /** One sentence for REPORT.md: what the figure shows and how to read it. */
  String caption();

  /** The suites whose result lines the figure reads; the report lists the figure under each. */
  List<String> suites();

  /**
   * Whether the results hold what the figure needs; by default, lines of every suite in {@link
   * #suites()}. A figure that is not drawable is skipped, not drawn empty.
   */
  default boolean canDraw(Results results) {
    return suites().stream().allMatch(results::has);
  }

  /**
   * The lines the figure draws, for the revision and dates printed under it; by default every line
   * of its suites. A figure that draws only the latest run says so here.
   */
  default List<Measurement> drawnFrom(Results results) {
    return suites().stream().flatMap(s -> results.of(s).stream()).toList();
  }

  /** Draws the figure from the results; called only when {@link #canDraw} is true. */
  BufferedImage draw(Results results);
}
