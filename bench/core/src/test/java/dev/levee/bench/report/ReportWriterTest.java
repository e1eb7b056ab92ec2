package dev.levee.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportWriterTest {
  @TempDir Path tmp;

  static Measurement m(String suite, String variant, int records, double seconds) {
    return new Measurement(
        suite,
        variant,
        Map.of("records", records),
        Map.of("seconds", seconds),
        0,
        Map.of("cores", 2, "cpu_model", "Test CPU"),
        "0123456789abcdef0123456789abcdef01234567",
        "2026-01-01T00:00Z",
        "BenchMain " + suite);
  }

  /** A figure of the "join" suite: one bar per variant, median seconds. */
  static class JoinFigure implements Figure {
    @Override
    public String file() {
      return "join-seconds.png";
    }

    @Override
    public String caption() {
      return "Join time per variant.";
    }

    @Override
    public List<String> suites() {
      return List.of("join");
    }

    @Override
    public BufferedImage draw(Results results) {
      var chart = Charts.bars("join", "variant", "seconds");
      List<String> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (ResultGroup g : results.groups("join")) {
        x.add(g.variant() + " " + g.paramsLabel());
        y.add(g.summary("seconds").median());
      }
      chart.addSeries("median", x, y);
      return Charts.image(chart);
    }
  }

  @Test
  void mediansRatiosAndTheRegisteredFiguresLinked() throws Exception {
    List<Measurement> all = new ArrayList<>();
    // stock: 10, 12, 30 -> median 12; plugin: 6, 5, 7 -> median 6; ratio 0.5. Other workload: 20 vs
    // 5 -> 0.25.
    for (double s : new double[] {10, 12, 30}) {
      all.add(m("join", "stock", 1000, s));
    }
    for (double s : new double[] {6, 5, 7}) {
      all.add(m("join", "leaky", 1000, s));
    }
    all.add(m("join", "stock", 2000, 20));
    all.add(m("join", "leaky", 2000, 5));
    ReportWriter writer = new ReportWriter(FigureRegistry.empty().with(new JoinFigure()));
    String md = writer.write(all, tmp);

    assertTrue(md.contains("| stock | records=1000 | 3 | 12.00 (10.00..30.00) |"), md);
    assertTrue(md.contains("| leaky | records=1000 | 3 | 6.00 (5.00..7.00) |"), md);
    assertTrue(md.contains("| leaky | records=1000 | 0.500 |"), md);
    assertTrue(md.contains("| leaky | records=2000 | 0.250 |"), md);
    assertTrue(md.contains("Test CPU, 2 cores"), md);
    assertTrue(md.contains("revision 0123456789ab"), md);
    assertEquals(md, Files.readString(tmp.resolve(ReportWriter.REPORT_FILE)));

    assertTrue(md.contains("![join-seconds.png](figures/join-seconds.png)"), md);
    assertTrue(md.contains("Join time per variant."), md);
    assertTrue(md.contains("Figures: [join-seconds.png](figures/join-seconds.png)"), md);
    BufferedImage image = ImageIO.read(tmp.resolve("figures/join-seconds.png").toFile());
    assertNotNull(image, "a readable PNG");
    assertEquals(Charts.WIDTH, image.getWidth());
    try (var files = Files.list(tmp)) {
      assertTrue(files.noneMatch(f -> f.toString().endsWith(".png")), "no chart per metric");
    }
  }

  @Test
  void aFigureWithoutItsDataIsSkippedNotDrawnEmpty() throws Exception {
    List<Measurement> all =
        List.of(m("physical-limits", "memcpy-heap", 1, 3), m("physical-limits", "tcp", 2, 4));
    String md = new ReportWriter(FigureRegistry.empty().with(new JoinFigure())).write(all, tmp);
    assertFalse(md.contains("Ratios"), md);
    assertFalse(md.contains("join-seconds.png"), md);
    assertFalse(Files.exists(tmp.resolve("figures/join-seconds.png")));
  }

  @Test
  void figureNamesAreCheckedAndUnique() {
    Figure badName =
        new JoinFigure() {
          @Override
          public String file() {
            return "Join Seconds.png";
          }
        };
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> FigureRegistry.empty().with(badName));
    assertTrue(e.getMessage().contains("<suite>-<what>.png"), e.getMessage());
    Figure sameFile = new JoinFigure() {};
    IllegalStateException twice =
        assertThrows(
            IllegalStateException.class,
            () -> FigureRegistry.empty().with(new JoinFigure()).with(sameFile));
    assertTrue(
        twice.getMessage().contains("two figures write join-seconds.png"), twice.getMessage());
  }

  @Test
  void summaryOfEvenAndOddCounts() {
    assertEquals(2.5, Summary.of(List.of(4.0, 1.0, 2.0, 3.0)).median());
    Summary s = Summary.of(List.of(5.0, 1.0, 3.0));
    assertEquals(3.0, s.median());
    assertEquals(1.0, s.min());
    assertEquals(5.0, s.max());
    assertEquals(4.0 / 3.0, s.relativeSpread(), 1e-12);
  }

  @Test
  void figuresDrawnBySuitesAreListedAndLinkedFromTheirSuite() throws Exception {
    List<Measurement> all = List.of(m("join", "stock", 1000, 10), m("join-x", "stock", 1000, 10));
    Path figures = Files.createDirectories(tmp.resolve("figures"));
    for (String f :
        List.of("join-x-memory.png", "join-sweep.png", "join-seconds.png", "other-thing.png")) {
      Files.write(figures.resolve(f), new byte[] {1});
    }
    String md = new ReportWriter(FigureRegistry.empty().with(new JoinFigure())).write(all, tmp);
    assertTrue(md.contains("## Figures drawn by their suites"), md);
    assertTrue(
        md.contains("- `join`: [join-sweep.png](figures/join-sweep.png)\n"),
        "the report's own join-seconds.png is not listed again: " + md);
    assertTrue(
        md.contains("- `join-x`: [join-x-memory.png](figures/join-x-memory.png)\n"),
        "the longest suite name wins: " + md);
    assertFalse(md.contains("other-thing.png"), "a file of no suite is left out");
    assertTrue(
        md.contains(
            "Figures: [join-seconds.png](figures/join-seconds.png),"
                + " [join-sweep.png](figures/join-sweep.png)\n"),
        "the join section links both: " + md);
  }
}
