package dev.levee.bench.hadoop.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The emulated-disk figure puts side by side the arms measured at the largest Sort, each from its
 * latest run there, although they were measured in separate half-hour runs.
 */
class ThemisEmulatedFigureTest {
  private static Measurement line(String variant, long inputBytes, String rev, String time) {
    return new Measurement(
        "themis",
        variant,
        Map.of("disk", "emulated", "workload", "sort", "input_bytes", inputBytes),
        Map.of("seconds", 100.0, "phase1_emulated_disk_busy", 0.5),
        0,
        Map.of(),
        rev,
        time,
        "cmd " + rev);
  }

  @Test
  void armsOfSeparateRunsAtTheLargestSizeAreDrawnTogetherEachFromItsLatestRun() {
    Measurement small = line("stock-tuned", 1_000, "a", "2026-01-01");
    Measurement defaultAndThemis1 = line("stock-default", 5_000, "b", "2026-01-02");
    Measurement defaultAndThemis2 = line("themis", 5_000, "b", "2026-01-02");
    Measurement tunedOld = line("stock-tuned", 5_000, "c", "2026-01-03");
    Measurement tunedNew = line("stock-tuned", 5_000, "d", "2026-01-04");
    Results results =
        new Results(List.of(small, defaultAndThemis1, defaultAndThemis2, tunedOld, tunedNew));
    List<Measurement> drawn = new ThemisEmulatedFigure().drawnFrom(results);
    assertEquals(3, drawn.size(), drawn.toString());
    assertTrue(drawn.containsAll(List.of(defaultAndThemis1, defaultAndThemis2, tunedNew)));
  }
}
