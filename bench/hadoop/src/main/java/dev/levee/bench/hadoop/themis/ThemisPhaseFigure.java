package dev.levee.bench.hadoop.themis;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;

/**
 * The paper's Fig. 9 on this machine, drawn from {@code bench/results/themis.jsonl}: each
 * workload's two phases per variant as a share of the phase's disk bound (the time the disk needs
 * to read and write the phase's bytes once, over the phase's time). The axis is scaled to the bars:
 * the bound (100%) and the paper's goal (80%) lie far above them here, and the notes say so and
 * name what the phases waited for instead (the CPU).
 */
public final class ThemisPhaseFigure implements Figure {
  static final String SUITE = "themis";
  private static final String[] PHASES = {"phase1", "phase2"};

  @Override
  public String file() {
    return "themis-phase-throughput.png";
  }

  @Override
  public String caption() {
    return "Themis' Fig. 9 on this machine (`./levee bench themis`, the latest run over the most"
        + " workloads): each workload's phase 1 (read input, write intermediate) and phase 2 (the"
        + " rest) per variant, as a percentage of the phase's disk bound (its bytes read and"
        + " written once at this disk's measured speed). The bound and the paper's 80% goal are"
        + " far above the bars; the notes give the share of CPU time the phases were busy.";
  }

  @Override
  public List<String> suites() {
    return List.of(SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    return !drawnFrom(results).isEmpty();
  }

  @Override
  public List<Measurement> drawnFrom(Results results) {
    return ThemisRuns.widest(results, "phase1_disk_fraction");
  }

  @Override
  public BufferedImage draw(Results results) {
    List<Measurement> run = drawnFrom(results);
    List<String> workloads = ThemisRuns.workloads(run);
    List<String> categories = new ArrayList<>();
    for (String w : workloads) {
      categories.add(w + " 1");
      categories.add(w + " 2");
    }
    List<String> variants = run.stream().map(Measurement::variant).distinct().toList();
    CategoryChart chart =
        Charts.bars(
            "Themis: each phase's throughput as a share of its disk bound (the paper's Fig. 9)",
            "workload and phase (1: read input, write intermediate; 2: the rest)",
            "% of the disk bound (100% = disk-bound; goal 80%)",
            1600,
            Charts.HEIGHT);
    chart.getStyler().setDecimalPattern("#,##0.0");
    // WordCount's bars are a fraction of a percent: their labels would cover the axis. The values
    // are in themis-ratios.md.
    chart.getStyler().setLabelsVisible(false);
    double max = 0;
    for (String v : variants) {
      List<Double> y = new ArrayList<>();
      for (String w : workloads) {
        for (String phase : PHASES) {
          double share = 100 * ThemisRuns.median(run, v, w, phase + "_disk_fraction");
          y.add(Double.isNaN(share) ? null : share);
          max = Double.isNaN(share) ? max : Math.max(max, share);
        }
      }
      chart.addSeries(v, categories, y).setFillColor(ShuffleVariant.colour(v));
    }
    Charts.headroom(chart, max);
    double busyMin = Double.NaN;
    double busyMax = Double.NaN;
    for (Measurement m : run) {
      for (String phase : PHASES) {
        Double b = m.metrics().get(phase + "_cpu_busy");
        if (b != null) {
          busyMin = Double.isNaN(busyMin) ? b : Math.min(busyMin, b);
          busyMax = Double.isNaN(busyMax) ? b : Math.max(busyMax, b);
        }
      }
    }
    String cpu =
        Double.isNaN(busyMin)
            ? ""
            : String.format(
                Locale.ROOT,
                " Both cores were %.0f-%.0f%% busy in every phase: the phases waited for the CPU,"
                    + " not the disk.",
                100 * busyMin,
                100 * busyMax);
    Measurement first = run.get(0);
    return Charts.panels(
        "",
        List.of(Charts.image(chart)),
        List.of(
            String.format(
                    Locale.ROOT,
                    "Axis scaled to the bars: the disk bound (100%%) and the goal (80%%) are off the"
                        + " top; the highest bar is %.0f%%. Medians of %d run(s) per variant;"
                        + " page cache %s.",
                    max,
                    ThemisRuns.repetitions(run),
                    Boolean.TRUE.equals(first.params().get("caches_dropped"))
                        ? "dropped"
                        : "not dropped")
                + cpu));
  }
}
