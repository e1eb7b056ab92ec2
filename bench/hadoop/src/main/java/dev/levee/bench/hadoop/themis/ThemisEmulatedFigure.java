package dev.levee.bench.hadoop.themis;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.awt.Color;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.knowm.xchart.CategoryChart;

/**
 * Themis in the paper's regime: the largest Sort run on the emulated spinning disk, each variant's
 * phase times beside the share of each phase the emulated spindle was busy (the paper's nodes ran
 * at 92-94 % of their disks; the goal is 80 %).
 */
public final class ThemisEmulatedFigure implements Figure {
  private static final String[] PHASES = {"phase1", "phase2"};
  private static final Color PHASE1 = new Color(0x9e, 0xc9, 0xe2);
  private static final Color PHASE2 = new Color(0x1f, 0x5f, 0x8b);

  @Override
  public String file() {
    return "themis-emulated-disk.png";
  }

  @Override
  public String caption() {
    return "Themis on the emulated 7200-rpm disk (`./levee bench themis --disk emulated`, the"
        + " largest Sort run): each variant's phase times, and the share of each phase the"
        + " emulated spindle was busy.";
  }

  @Override
  public List<String> suites() {
    return List.of(ThemisPhaseFigure.SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    return !drawnFrom(results).isEmpty();
  }

  /**
   * The emulated-disk Sort lines at the largest input measured: for each variant, its latest run at
   * that size. A run at this size takes half an hour per arm, so arms are often measured in
   * separate runs; each keeps its own revision and command in the results.
   */
  @Override
  public List<Measurement> drawnFrom(Results results) {
    List<List<Measurement>> runs =
        List.copyOf(
            ThemisRuns.runs(
                results,
                m ->
                    "emulated".equals(m.params().get("disk"))
                        && SortWorkload.NAME.equals(m.params().get("workload"))
                        && m.metrics().containsKey("phase1_emulated_disk_busy")));
    double largest = runs.stream().mapToDouble(ThemisEmulatedFigure::inputBytes).max().orElse(0);
    Map<String, List<Measurement>> latest = new LinkedHashMap<>();
    Map<String, String> latestTime = new HashMap<>();
    for (List<Measurement> run : runs) {
      if (inputBytes(run) < largest) {
        continue;
      }
      for (String variant : run.stream().map(Measurement::variant).distinct().toList()) {
        List<Measurement> lines = run.stream().filter(m -> m.variant().equals(variant)).toList();
        String time =
            lines.stream()
                .map(m -> Objects.toString(m.timestamp(), ""))
                .max(String::compareTo)
                .orElse("");
        if (time.compareTo(latestTime.getOrDefault(variant, "")) >= 0) {
          latest.put(variant, lines);
          latestTime.put(variant, time);
        }
      }
    }
    List<Measurement> drawn = new ArrayList<>();
    latest.values().forEach(drawn::addAll);
    return drawn;
  }

  private static double inputBytes(List<Measurement> run) {
    return run.stream()
        .mapToDouble(m -> ((Number) m.params().getOrDefault("input_bytes", 0)).doubleValue())
        .max()
        .orElse(0);
  }

  @Override
  public BufferedImage draw(Results results) {
    List<Measurement> run = drawnFrom(results);
    List<String> variants = run.stream().map(Measurement::variant).distinct().toList();
    CategoryChart time =
        Charts.bars("Phase times (s)", "variant", "seconds (median)", 700, Charts.HEIGHT);
    time.getStyler().setDecimalPattern("#,##0");
    CategoryChart busy =
        Charts.bars(
            "Emulated spindle busy (goal 80 %, dashed)",
            "variant", "% of the phase's time", 700, Charts.HEIGHT);
    busy.getStyler().setDecimalPattern("0");
    busy.getStyler().setYAxisMax(100.0);
    busy.getStyler().setYAxisMin(0.0);
    Charts.goalLine(busy, 80);
    for (int i = 0; i < PHASES.length; i++) {
      String phase = PHASES[i];
      List<Double> seconds = new ArrayList<>();
      List<Double> share = new ArrayList<>();
      for (String v : variants) {
        seconds.add(median(run, v, phase + "_seconds"));
        share.add(100 * median(run, v, phase + "_emulated_disk_busy"));
      }
      String label = "phase " + (i + 1);
      time.addSeries(label, variants, seconds).setFillColor(i == 0 ? PHASE1 : PHASE2);
      busy.addSeries(label, variants, share).setFillColor(i == 0 ? PHASE1 : PHASE2);
    }
    double maxSeconds =
        variants.stream()
            .flatMap(v -> java.util.Arrays.stream(PHASES).map(p -> median(run, v, p + "_seconds")))
            .mapToDouble(Double::doubleValue)
            .filter(d -> !Double.isNaN(d))
            .max()
            .orElse(1);
    Charts.headroom(time, maxSeconds);
    Measurement first = run.get(0);
    StringBuilder jobs = new StringBuilder();
    for (String v : variants) {
      jobs.append(jobs.length() == 0 ? "" : "; ")
          .append(
              String.format(
                  Locale.ROOT,
                  "%s %,.0f s, %.2f reads and %.2f writes per record",
                  v,
                  median(run, v, "seconds"),
                  median(run, v, "reads_per_record"),
                  median(run, v, "writes_per_record")));
    }
    return Charts.panels(
        String.format(
            Locale.ROOT,
            "Themis on an emulated spinning disk: Sort of %,.1f GB",
            inputBytes(run) / 1e9),
        List.of(Charts.image(time), Charts.image(busy)),
        List.of(
            "Job: " + jobs + ".",
            String.format(
                Locale.ROOT,
                "Emulated disk (FUSE, labelled emulation): %s MB/s, %s ms per seek, %s MB write-back"
                    + " cache, one spindle under HDFS and both NodeManagers' local dirs; %.0f maps (%s input files), %s"
                    + " reducers, tasks at -Xmx%s m; medians of %d run(s).",
                first.params().get("emulated_disk_mb_per_s"),
                first.params().get("emulated_disk_seek_ms"),
                first.params().get("emulated_disk_write_cache_mb"),
                first.metrics().getOrDefault("maps_run", Double.NaN),
                first.params().get("maps"),
                first.params().get("reducers"),
                first.params().get("task_heap_mb"),
                ThemisRuns.repetitions(run))));
  }

  private static double median(List<Measurement> run, String variant, String metric) {
    return Results.median(run.stream().filter(m -> m.variant().equals(variant)).toList(), metric);
  }
}
