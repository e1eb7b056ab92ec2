package dev.levee.bench.report.figures;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.awt.BasicStroke;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.CategoryChart;

/**
 * The Median job on the emulated 7200-rpm disk ({@code --disk emulated}), the SpongeFiles paper's
 * regime: job seconds and the final merge's seconds, stock against SpongeFiles, per condition. Each
 * condition comes from the emulated run that measured both arms in it most often, the newest of
 * those (the strip names every revision drawn); real-disk runs are the other figures'.
 */
public final class SpongeMedianEmulatedFigure implements Figure {
  private static final Map<String, String> CONDITIONS = new LinkedHashMap<>();

  static {
    CONDITIONS.put("none", "alone");
    CONDITIONS.put("disk-contention", "disk contention");
  }

  /**
   * The bound of the "alone" condition: stock with a reducer heap that holds its whole input, on
   * the same emulated disk.
   */
  static final String NO_SPILL = "no-spill";

  private static final Map<String, String> ARMS = new LinkedHashMap<>();

  static {
    ARMS.put(Measurement.STOCK, "stock Hadoop (spills to the disk)");
    ARMS.put("spongefiles", "SpongeFiles");
  }

  @Override
  public String file() {
    return "sponge-median-emulated-disk.png";
  }

  @Override
  public String caption() {
    return "SpongeFiles' Median job on an EMULATED 7200-rpm disk (one spindle under the whole"
        + " cluster): job and final-merge seconds, medians per condition, stock against SpongeFiles;"
        + " the green line is the no-spill bound (stock with a reducer heap that holds its input)"
        + " and 'closes N%' the share of stock's spill penalty SpongeFiles removes.";
  }

  @Override
  public List<String> suites() {
    return List.of(SpongeMedianFigure.SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    return !drawnFrom(results).isEmpty();
  }

  @Override
  public List<Measurement> drawnFrom(Results results) {
    List<Measurement> out = new ArrayList<>();
    CONDITIONS.keySet().forEach(c -> out.addAll(chosenRun(results, c)));
    if (!out.isEmpty()) {
      out.addAll(chosenRun(results, NO_SPILL));
    }
    return out;
  }

  /**
   * The lines of the emulated run with both arms' Median job in {@code condition} and the most runs
   * of its less-measured arm, the newest of those: a newer single run does not replace an older
   * median of two.
   */
  static List<Measurement> chosenRun(Results results, String condition) {
    List<Measurement> lines =
        results.of(SpongeMedianFigure.SUITE).stream()
            .filter(SpongeMedianFigure::onEmulatedDisk)
            // One spindle under the whole cluster; a spindle per node is another regime.
            .filter(m -> !m.params().containsKey("spindles"))
            .filter(m -> Objects.equals(m.params().getOrDefault("job", "median"), "median"))
            .filter(m -> condition.equals(m.params().get("condition")))
            .filter(m -> ARMS.containsKey(m.variant()))
            .toList();
    return lines.stream()
        .sorted(
            Comparator.comparing((Measurement m) -> Objects.toString(m.timestamp(), "")).reversed())
        .map(
            last ->
                lines.stream()
                    .filter(m -> Objects.equals(m.gitRevision(), last.gitRevision()))
                    .filter(m -> Objects.equals(m.command(), last.command()))
                    .toList())
        .filter(run -> ARMS.keySet().stream().allMatch(a -> !arm(run, a).isEmpty()))
        .reduce((best, older) -> runsPerArm(older) > runsPerArm(best) ? older : best)
        .orElse(List.of());
  }

  private static int runsPerArm(List<Measurement> run) {
    return ARMS.keySet().stream().mapToInt(a -> arm(run, a).size()).min().orElse(0);
  }

  private static List<Measurement> arm(List<Measurement> run, String variant) {
    return run.stream()
        .filter(m -> m.variant().equals(variant) && m.metrics().get("failed") == 0.0)
        .toList();
  }

  /** ", closes 75%" as a sentence of the strip below the panels. */
  private static String sentence(String closes) {
    if (closes.isEmpty()) {
      return "";
    }
    return closes.equals(", no penalty")
        ? " Stock pays no spill penalty over the bound here."
        : " Of stock's spill penalty over the bound, SpongeFiles" + closes.substring(1) + ".";
  }

  @Override
  public BufferedImage draw(Results results) {
    CategoryChart job =
        Charts.bars("Median job", "condition", "job seconds (median)", 700, Charts.HEIGHT);
    CategoryChart merge =
        Charts.bars("Final merge + reduce", "condition", "seconds (median)", 700, Charts.HEIGHT);
    List<String> labels = new ArrayList<>();
    Map<String, List<Double>> jobSeconds = new LinkedHashMap<>();
    Map<String, List<Double>> mergeSeconds = new LinkedHashMap<>();
    ARMS.keySet().forEach(a -> jobSeconds.put(a, new ArrayList<>()));
    ARMS.keySet().forEach(a -> mergeSeconds.put(a, new ArrayList<>()));
    List<String> notes = new ArrayList<>();
    double maxJob = 0;
    double maxMerge = 0;
    List<Measurement> noSpill = chosenRun(results, NO_SPILL);
    double bound =
        noSpill.isEmpty() ? Double.NaN : Results.median(arm(noSpill, Measurement.STOCK), "seconds");
    for (Map.Entry<String, String> c : CONDITIONS.entrySet()) {
      List<Measurement> run = chosenRun(results, c.getKey());
      if (run.isEmpty()) {
        continue;
      }
      List<Measurement> stock = arm(run, Measurement.STOCK);
      List<Measurement> sponge = arm(run, "spongefiles");
      double ratio = Results.median(stock, "seconds") / Results.median(sponge, "seconds");
      String closes =
          c.getKey().equals("none") && !Double.isNaN(bound)
              ? SpongeJobsFigure.closes(
                  Results.median(stock, "seconds"), Results.median(sponge, "seconds"), bound)
              : "";
      // The label stays short (two sit side by side under each panel); the share goes below.
      labels.add(String.format(Locale.ROOT, "%s: stock / SpongeFiles %.2fx", c.getValue(), ratio));
      for (String a : ARMS.keySet()) {
        double s = Results.median(arm(run, a), "seconds");
        double m = Results.median(arm(run, a), "reduce_final_merge_seconds");
        jobSeconds.get(a).add(s);
        mergeSeconds.get(a).add(m);
        maxJob = Math.max(maxJob, s);
        maxMerge = Math.max(maxMerge, m);
      }
      notes.add(
          String.format(
                  Locale.ROOT,
                  "%s: run at %s, %d run(s) per arm; SpongeFiles' spill %.0f MB in its own node's sponge,"
                      + " %.0f MB in other nodes', %.1f MB on disk; stock's %.0f MB on disk in %.0f merge"
                      + " rounds.",
                  c.getValue(),
                  run.get(0).gitRevision().substring(0, 7),
                  stock.size(),
                  Results.median(sponge, "spill_local_memory_bytes") / 1e6,
                  Results.median(sponge, "spill_remote_memory_bytes") / 1e6,
                  Results.median(sponge, "spill_local_disk_bytes") / 1e6,
                  Results.median(stock, "spill_local_disk_bytes") / 1e6,
                  Results.median(stock, "merge_rounds"))
              + sentence(closes));
    }
    for (Map.Entry<String, String> a : ARMS.entrySet()) {
      java.awt.Color colour = a.getKey().equals(Measurement.STOCK) ? Charts.STOCK : Charts.PLUGIN;
      job.addSeries(a.getValue(), labels, jobSeconds.get(a.getKey())).setFillColor(colour);
      merge.addSeries(a.getValue(), labels, mergeSeconds.get(a.getKey())).setFillColor(colour);
    }
    if (!Double.isNaN(bound)) {
      // The bound is stock's time without a spill; a line, since it is not a third arm.
      job.addAnnotation(new AnnotationLine(bound, false, false));
      job.getStyler().setAnnotationLineColor(Charts.BOUND);
      job.getStyler().setAnnotationLineStroke(new BasicStroke(3f));
      job.setXAxisTitle(
          String.format(
              Locale.ROOT, "condition; no-spill bound %.1f s (green, alone only)", bound));
      notes.add(
          String.format(
              Locale.ROOT,
              "no-spill bound: run at %s, %d run(s): stock with a %s MB reducer that holds the"
                  + " input took %.1f s, SpongeFiles at that heap %.1f s; 'closes N%%' is the"
                  + " share of stock's spill penalty (stock minus the bound) SpongeFiles removes.",
              noSpill.get(0).gitRevision().substring(0, 7),
              arm(noSpill, Measurement.STOCK).size(),
              arm(noSpill, Measurement.STOCK).get(0).params().get("reduce_heap_mb"),
              bound,
              Results.median(arm(noSpill, "spongefiles"), "seconds")));
    }
    job.getStyler().setDecimalPattern("#,##0");
    merge.getStyler().setDecimalPattern("#,##0.0");
    Charts.headroom(job, maxJob);
    Charts.headroom(merge, maxMerge);
    Measurement first = drawnFrom(results).get(0);
    notes.add(
        0,
        String.format(
            Locale.ROOT,
            "EMULATED disk (FUSE, charged per request): %s MB/s, %s ms a seek, %s MB write cache, one"
                + " spindle under HDFS and every NodeManager's local dirs. %s numbers"
                + " into one reducer of %s MB heap (%s MB of shuffle). Lower is better.",
            first.params().get("emulated_disk_mb_per_s"),
            first.params().get("emulated_disk_seek_ms"),
            first.params().get("emulated_disk_write_cache_mb"),
            String.format(Locale.ROOT, "%,d", ((Number) first.params().get("numbers")).longValue()),
            first.params().get("reduce_heap_mb"),
            ((Number) first.params().get("reducer_input_bytes")).longValue() / 1_000_000));
    return Charts.panels(
        "SpongeFiles' Median job on an EMULATED 7200-rpm disk: stock against SpongeFiles",
        List.of(Charts.image(job), Charts.image(merge)),
        notes);
  }
}
