package dev.levee.bench.report.figures;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpongeMedianEmulatedFigureTest {

  private static Measurement line(
      String variant, String condition, boolean emulated, String command, String time, double s) {
    Map<String, Object> params = new HashMap<>();
    params.put("condition", condition);
    params.put("job", "median");
    params.put("numbers", 24_000_000);
    params.put("reduce_heap_mb", 24);
    params.put("reducer_input_bytes", 240_000_000);
    if (emulated) {
      params.put("disk", "emulated");
      params.put("emulated_disk_mb_per_s", 120.0);
      params.put("emulated_disk_seek_ms", 8.0);
      params.put("emulated_disk_write_cache_mb", 128);
    }
    return new Measurement(
        "sponge-median",
        variant,
        params,
        Map.of("seconds", s, "failed", 0.0, "reduce_final_merge_seconds", s / 10),
        0,
        Map.of(),
        "abcdef0123",
        time,
        command);
  }

  @Test
  void eachConditionFromTheMostRepeatedEmulatedRunWithBothArms() {
    Results r =
        new Results(
            List.of(
                line("stock", "none", true, "both", "2026-11-30T01", 150),
                line("spongefiles", "none", true, "both", "2026-11-30T01", 120),
                line("stock", "disk-contention", true, "both", "2026-11-30T01", 200),
                line("spongefiles", "disk-contention", true, "both", "2026-11-30T01", 145),
                // A newer contention run replaces the older one's contention lines only.
                line("stock", "disk-contention", true, "contention", "2026-11-30T02", 185),
                line("spongefiles", "disk-contention", true, "contention", "2026-11-30T02", 133),
                // Newer, but one run of each arm against two: the two stay.
                line("stock", "none", true, "once", "2026-11-30T03", 163),
                line("spongefiles", "none", true, "once", "2026-11-30T03", 136),
                line("stock", "none", true, "both", "2026-11-30T01", 160),
                line("spongefiles", "none", true, "both", "2026-11-30T01", 125),
                // Newer still, but stock alone: not a comparison.
                line("stock", "disk-contention", true, "stock only", "2026-11-30T03", 180),
                // The real disk is the other figures' regime.
                line("stock", "none", false, "real", "2026-11-30T04", 50),
                line("spongefiles", "none", false, "real", "2026-11-30T04", 45)));
    List<Measurement> none = SpongeMedianEmulatedFigure.chosenRun(r, "none");
    List<Measurement> contention = SpongeMedianEmulatedFigure.chosenRun(r, "disk-contention");
    assertEquals(List.of("both"), none.stream().map(Measurement::command).distinct().toList());
    assertEquals(
        List.of("contention"), contention.stream().map(Measurement::command).distinct().toList());
    SpongeMedianEmulatedFigure f = new SpongeMedianEmulatedFigure();
    assertTrue(f.canDraw(r));
    FiguresTest.assertDrawsVisibly(f, r);
  }

  @Test
  void theNoSpillRunIsTheAloneConditionsBound() {
    Results r =
        new Results(
            List.of(
                line("stock", "none", true, "spill", "2026-12-01T01", 160),
                line("spongefiles", "none", true, "spill", "2026-12-01T01", 130),
                line("stock", "no-spill", true, "bound", "2026-12-01T00", 120),
                line("spongefiles", "no-spill", true, "bound", "2026-12-01T00", 108)));
    SpongeMedianEmulatedFigure f = new SpongeMedianEmulatedFigure();
    assertEquals(
        List.of("spill", "bound"),
        f.drawnFrom(r).stream().map(Measurement::command).distinct().toList(),
        "the bound's run is among the lines the figure names");
    // (160 - 130) / (160 - 120) of stock's spill penalty.
    assertEquals(", closes 75%", SpongeJobsFigure.closes(160, 130, 120));
    assertEquals(", no penalty", SpongeJobsFigure.closes(121, 119, 120));
    assertEquals(", closes all (5.5 s under the bound)", SpongeJobsFigure.closes(150, 114.5, 120));
    FiguresTest.assertDrawsVisibly(f, r);
  }

  @Test
  void realDiskRunsAloneDrawNothing() {
    Results r =
        new Results(
            List.of(
                line("stock", "none", false, "real", "t", 50),
                line("spongefiles", "none", false, "real", "t", 45)));
    assertFalse(new SpongeMedianEmulatedFigure().canDraw(r));
  }
}
