package dev.levee.bench.report.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.report.Figure;
import dev.levee.bench.report.FigureRegistry;
import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.RepoLayout;
import dev.levee.bench.results.ResultsStore;
import java.awt.image.BufferedImage;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Public, and in bench-core's test jar, for bench-hadoop's figures ({@link #assertDrawsVisibly}).
 */
public class FiguresTest {

  private static Measurement median(
      String variant, String condition, double seconds, double failed) {
    return new Measurement(
        "sponge-median",
        variant,
        Map.of("condition", condition, "numbers", 1000, "reduce_heap_mb", 24),
        Map.of("seconds", seconds, "failed", failed),
        0,
        Map.of(),
        "r",
        "t",
        "c");
  }

  @Test
  void theRegisteredFiguresAreTheCuratedOnes() {
    List<String> files =
        FigureRegistry.discover(getClass().getClassLoader()).all().stream()
            .map(Figure::file)
            .toList();
    assertTrue(
        files.containsAll(
            List.of(
                "demo-stock-vs-plugin.png",
                "sponge-median-per-condition.png",
                "sponge-micro-spill-cost.png",
                "physical-limits-bandwidth.png")),
        files.toString());
  }

  /** Every figure draws from the committed results, and what it draws is not a blank canvas. */
  @Test
  void everyFigureDrawsTheCommittedResultsVisibly() throws Exception {
    Results results = new Results(new ResultsStore(RepoLayout.defaultResultsDir()).readAll());
    for (Figure f : FigureRegistry.discover(getClass().getClassLoader()).all()) {
      if (f.canDraw(results)) {
        assertDrawsVisibly(f, results);
      }
    }
  }

  /**
   * The figure drawn from these results is of a readable size, in colour, and not a blank canvas.
   */
  public static void assertDrawsVisibly(Figure f, Results results) {
    BufferedImage image = f.draw(results);
    assertTrue(image.getWidth() >= 800 && image.getHeight() >= 500, f.file());
    assertTrue(colours(image) >= 4, f.file() + " uses at least stock, plugin, text and paper");
    assertTrue(inkFraction(image) > 0.03, f.file() + " is more than an empty canvas");
  }

  @Test
  void failedRunsAreLeftOutOfTheBarsAndNamedUnderTheCondition() {
    List<Measurement> stock =
        List.of(median("stock", "none", 100, 0), median("stock", "none", 0, 1));
    List<Measurement> sponge = List.of(median("spongefiles", "none", 50, 0));
    assertEquals(" (n=2; stock 1/2 FAILED)", SpongeMedianFigure.failures(stock, sponge));
    assertEquals(" (n=1)", SpongeMedianFigure.failures(List.of(stock.get(0)), sponge));
    Results r =
        new Results(
            List.of(
                stock.get(0),
                stock.get(1),
                sponge.get(0),
                median("stock", "no-spill", 40, 0),
                median("spongefiles", "no-spill", 41, 0)));
    SpongeMedianFigure f = new SpongeMedianFigure();
    assertTrue(f.canDraw(r));
    assertTrue(inkFraction(f.draw(r)) > 0.03);
    assertTrue(
        !f.canDraw(new Results(List.of(median("stock", "no-spill", 40, 0)))),
        "the no-spill bound alone is not a figure");
  }

  @Test
  void theTunedStockArmIsDrawnBesideStockWhenMeasured() {
    List<Measurement> two =
        List.of(
            median("stock", "none", 100, 0),
            median("spongefiles", "none", 50, 0),
            median("stock", "no-spill", 40, 0));
    List<Measurement> three = new java.util.ArrayList<>(two);
    three.add(median("stock-tuned", "none", 80, 0));
    SpongeMedianFigure f = new SpongeMedianFigure();
    // A third bar per condition: more ink than the same figure without it.
    assertTrue(inkFraction(f.draw(new Results(three))) > inkFraction(f.draw(new Results(two))));
  }

  @Test
  void aSmallerSmokeRunIsNotFoldedIntoTheFullSizeBars() {
    List<Measurement> full =
        List.of(median("stock", "none", 100, 0), median("spongefiles", "none", 50, 0));
    List<Measurement> withSmoke = new java.util.ArrayList<>(full);
    withSmoke.add(
        new Measurement(
            "sponge-median",
            "stock",
            Map.of("condition", "none", "numbers", 10, "reduce_heap_mb", 24),
            Map.of("seconds", 900.0, "failed", 0.0),
            0,
            Map.of(),
            "r",
            "t",
            "c"));
    SpongeMedianFigure f = new SpongeMedianFigure();
    assertEquals(
        inkFraction(f.draw(new Results(full))), inkFraction(f.draw(new Results(withSmoke))));
  }

  @Test
  void thePigJobsLinesAreNotDrawnAsTheMedianJob() {
    List<Measurement> median =
        List.of(median("stock", "none", 100, 0), median("spongefiles", "none", 50, 0));
    List<Measurement> withPig = new java.util.ArrayList<>(median);
    withPig.add(
        new Measurement(
            "sponge-median",
            "stock",
            Map.of("job", "quantiles", "condition", "none", "pages", 300000),
            Map.of("seconds", 900.0, "failed", 0.0),
            0,
            Map.of(),
            "r",
            "t",
            "c"));
    SpongeMedianFigure f = new SpongeMedianFigure();
    assertEquals(
        inkFraction(f.draw(new Results(median))), inkFraction(f.draw(new Results(withPig))));
    assertTrue(
        !f.canDraw(new Results(withPig.subList(2, 3))), "a Pig job's line alone is no figure");
  }

  @Test
  void theThreeJobsFigureDrawsOnlyTheLatestRunAndStatesThePenaltyClosed() {
    List<Measurement> old = new java.util.ArrayList<>();
    List<Measurement> run = new java.util.ArrayList<>();
    for (String job : List.of("median", "anchortext", "quantiles")) {
      old.add(jobLine(job, "stock", "none", 500, "old", "2026-01-01"));
      run.add(jobLine(job, "stock", "none", 100, "new", "2026-02-01"));
      run.add(jobLine(job, "stock-tuned", "none", 90, "new", "2026-02-01"));
      run.add(jobLine(job, "spongefiles", "none", 70, "new", "2026-02-01"));
      run.add(jobLine(job, "stock", "no-spill", 60, "new", "2026-02-01"));
    }
    List<Measurement> both = new java.util.ArrayList<>(old);
    both.addAll(run);
    assertEquals(run, SpongeJobsFigure.latestRun(new Results(both)));
    // A later run of the no-spill condition alone (the overhead check) leaves the figure as it was.
    List<Measurement> withCheck = new java.util.ArrayList<>(both);
    withCheck.add(jobLine("median", "stock", "no-spill", 61, "check", "2026-03-01"));
    withCheck.add(jobLine("median", "spongefiles", "no-spill", 62, "check", "2026-03-01"));
    assertEquals(run, SpongeJobsFigure.latestRun(new Results(withCheck)));
    SpongeJobsFigure f = new SpongeJobsFigure();
    assertTrue(f.canDraw(new Results(both)));
    BufferedImage image = f.draw(new Results(both));
    assertTrue(inkFraction(image) > 0.03);
    assertTrue(!f.canDraw(new Results(old.subList(0, 1))), "one job is the Median figure's job");
    Map<String, List<Double>> bars = new java.util.LinkedHashMap<>();
    bars.put("stock", List.of(100.0));
    bars.put("spongefiles", List.of(70.0));
    // Stock pays 40 s over the bound; SpongeFiles removes 30 of them.
    assertEquals(
        ", closes 75%",
        SpongeJobsFigure.closes(bars, dev.levee.bench.report.Summary.of(List.of(60.0))));
    assertEquals(
        ", no penalty",
        SpongeJobsFigure.closes(bars, dev.levee.bench.report.Summary.of(List.of(120.0))));
    assertEquals("", SpongeJobsFigure.closes(bars, null));
  }

  private static Measurement jobLine(
      String job, String variant, String condition, double seconds, String rev, String time) {
    return new Measurement(
        "sponge-median",
        variant,
        Map.of("job", job, "condition", condition, "reduce_heap_mb", 24),
        Map.of("seconds", seconds, "failed", 0.0),
        0,
        Map.of(),
        rev,
        time,
        "c");
  }

  @Test
  void latestRunPerVariantStartsAtItsLastRepetitionZero() {
    Measurement a0 = line("a", 0, 1);
    Measurement a1 = line("a", 1, 2);
    Measurement b0 = line("b", 0, 3);
    Measurement a0again = line("a", 0, 10);
    Map<String, List<Measurement>> latest =
        new Results(List.of(a0, a1, b0, a0again)).latestRunByVariant("s");
    assertEquals(List.of(a0again), latest.get("a"));
    assertEquals(List.of(b0), latest.get("b"));
    assertEquals(10.0, Results.median(latest.get("a"), "x"));
    assertTrue(Double.isNaN(Results.median(latest.get("a"), "absent")));
  }

  private static Measurement line(String variant, int rep, double x) {
    return new Measurement("s", variant, Map.of(), Map.of("x", x), rep, Map.of(), "r", "t", "c");
  }

  private static int colours(BufferedImage image) {
    Set<Integer> seen = new HashSet<>();
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        seen.add(image.getRGB(x, y) & 0xf0f0f0);
      }
    }
    return seen.size();
  }

  private static double inkFraction(BufferedImage image) {
    long ink = 0;
    long all = 0;
    for (int y = 0; y < image.getHeight(); y += 2) {
      for (int x = 0; x < image.getWidth(); x += 2) {
        all++;
        if ((image.getRGB(x, y) & 0xffffff) != 0xffffff) {
          ink++;
        }
      }
    }
    return (double) ink / all;
  }
}
