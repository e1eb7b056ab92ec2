package dev.levee.bench.hadoop.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.report.Figure;
import dev.levee.bench.report.FigureRegistry;
import dev.levee.bench.report.Results;
import dev.levee.bench.report.figures.FiguresTest;
import dev.levee.bench.results.RepoLayout;
import dev.levee.bench.results.ResultsStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The figures bench-hadoop registers (Themis' phases, Piranha's seconds and breakdowns), which
 * bench-core's FiguresTest cannot load: each draws the committed results visibly.
 */
class HadoopFiguresTest {
  @Test
  void everyHadoopSideFigureDrawsTheCommittedResultsVisibly() throws Exception {
    Results results = new Results(new ResultsStore(RepoLayout.defaultResultsDir()).readAll());
    List<Figure> ours =
        FigureRegistry.discover(getClass().getClassLoader()).all().stream()
            .filter(f -> f.getClass().getName().startsWith("dev.levee.bench.hadoop."))
            .toList();
    assertEquals(
        List.of(
            "piranha-breakdown-non-spam-top-k-anchor.png",
            "piranha-breakdown-top-k-domains.png",
            "piranha-breakdown-top-k-words.png",
            "piranha-seconds.png",
            "themis-cpu-per-record.png",
            "themis-emulated-disk.png",
            "themis-phase-throughput.png"),
        ours.stream().map(Figure::file).toList());
    for (Figure f : ours) {
      // The committed results hold a run of each: a figure that cannot draw them is broken.
      assertTrue(f.canDraw(results), f.file() + " draws the committed results");
      FiguresTest.assertDrawsVisibly(f, results);
    }
  }
}
