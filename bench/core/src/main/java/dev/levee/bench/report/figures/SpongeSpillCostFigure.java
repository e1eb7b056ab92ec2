package dev.levee.bench.report.figures;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

/**
 * SpongeFiles' Table 1 (Elmeleegy, Olston, Reed: "SpongeFiles: Mitigating Data Skew in MapReduce
 * Using Distributed Memory", SIGMOD 2014): the time to spill one 1 MB buffer to each medium, here
 * measured by {@code sponge-micro}, beside what this machine's measured bandwidth allows for the
 * same megabyte ({@code physical-limits}) and beside the paper's own numbers.
 */
public final class SpongeSpillCostFigure implements Figure {
  static final String MICRO = "sponge-micro";
  static final String LIMITS = "physical-limits";

  /**
   * Median ms to write one chunk: the paper's Table 1 gives an average, but a few slow writes (a
   * page-cache flush) move the mean by tens of percent between runs here, and the module's README
   * quotes the same median beside this figure.
   */
  private static final String MEASURED = "write_ms_median";

  /** A spill medium: the suite's variant, its label, the paper's ms (NaN: not in the paper). */
  private record Medium(String variant, String label, double paperMs, String yardstick) {}

  /** The paper's column order; the variants are sponge-micro's. */
  private static final List<Medium> MEDIA =
      List.of(
          new Medium("local-shm", "local shared memory", 1, "memcpy"),
          new Medium("local-spongefile", "local SpongeFile", Double.NaN, "memcpy"),
          new Medium("local-server", "local sponge server", 7, "loopback TCP"),
          new Medium("remote-server", "remote server (loopback)", 9, "loopback TCP"),
          new Medium("remote-spongefile", "remote SpongeFile (loopb.)", Double.NaN, "loopback TCP"),
          new Medium(
              "remote-spongefile-2copies",
              "remote SpongeFile, 2 copies",
              Double.NaN,
              "loopback TCP"),
          new Medium(
              "remote-spongefile-auth",
              "remote SpongeFile, authenticated",
              Double.NaN,
              "loopback TCP"),
          new Medium(
              "remote-spongefile-tls",
              "remote SpongeFile, TLS + auth.",
              Double.NaN,
              "loopback TCP"),
          new Medium("disk", "disk", 25, "disk write+fsync"),
          new Medium("disk-bg-io", "disk + background IO", 174, "disk write+fsync"),
          new Medium("disk-bg-io-mem", "disk + bg IO + mem. pressure", 499, "disk write+fsync"));

  /** sponge-micro's disk media run with {@code --disk emulated}. */
  private static final List<Medium> EMULATED =
      List.of(
          new Medium("disk-emulated", "EMULATED disk", 25, "emulated disk write+fsync"),
          new Medium(
              "disk-bg-io-emulated",
              "EMULATED disk + background IO",
              174,
              "emulated disk write+fsync"));

  @Override
  public String file() {
    return "sponge-micro-spill-cost.png";
  }

  @Override
  public String caption() {
    return "SpongeFiles' Table 1 on this machine: median time to spill one 1 MB chunk to each medium"
        + " (blue), the time this machine's measured bandwidth allows for that megabyte (green:"
        + " memcpy, loopback TCP or disk write+fsync from `physical-limits`), and the paper's"
        + " Table 1 (orange; the paper's cluster: 1 GbE, 7200 rpm disks). Log scale: disk is one to two"
        + " orders of magnitude slower than memory. Remote media here are over loopback. The"
        + " EMULATED media ran on the emulated 7200-rpm disk (`sponge-micro --disk emulated`: 120"
        + " MB/s, 8 ms per seek, one queue, no cache), with the emulated disk's own measured"
        + " limit.";
  }

  @Override
  public List<String> suites() {
    return List.of(MICRO, LIMITS);
  }

  @Override
  public boolean canDraw(Results results) {
    return results.of(MICRO).stream().anyMatch(m -> m.metrics().containsKey(MEASURED));
  }

  @Override
  public List<Measurement> drawnFrom(Results results) {
    return results.latestRuns(MICRO, LIMITS);
  }

  @Override
  public BufferedImage draw(Results results) {
    Map<String, List<Measurement>> micro = results.latestRunByVariant(MICRO);
    Map<String, List<Measurement>> limits = results.latestRunByVariant(LIMITS);
    List<String> labels = new ArrayList<>();
    List<Double> measured = new ArrayList<>();
    List<Double> limit = new ArrayList<>();
    List<Double> paper = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    double chunkMb = 1.0;
    List<Medium> media = new ArrayList<>(MEDIA);
    // The disk media on the emulated spinning disk (--disk emulated), when measured, beside the
    // real disk and the paper's disk.
    EMULATED.stream().filter(m -> micro.containsKey(m.variant())).forEach(media::add);
    // A medium added to the suite later still shows, under its variant name, against its own limit.
    micro.keySet().stream()
        .filter(v -> media.stream().noneMatch(m -> m.variant().equals(v)))
        .forEach(v -> media.add(new Medium(v, v, Double.NaN, "")));
    for (Medium m : media) {
      List<Measurement> lines = micro.get(m.variant());
      if (lines == null || Double.isNaN(Results.median(lines, MEASURED))) {
        if (!Double.isNaN(m.paperMs())) {
          missing.add(m.label());
        }
        continue;
      }
      Object chunk = lines.get(0).params().get("chunk_bytes");
      chunkMb = chunk instanceof Number n ? n.doubleValue() / 1e6 : 1.048576;
      labels.add(m.label());
      measured.add(Results.median(lines, MEASURED));
      double mbPerS = limitMbPerS(m.yardstick(), limits, lines);
      limit.add(Double.isNaN(mbPerS) ? null : 1000 * chunkMb / mbPerS);
      paper.add(Double.isNaN(m.paperMs()) ? null : m.paperMs());
    }
    CategoryChart chart =
        Charts.bars(
            "SpongeFiles Table 1: cost of spilling one 1 MB chunk, per medium",
            "spill medium"
                + (missing.isEmpty()
                    ? ""
                    : "   (not measured: " + String.join(", ", missing) + ")"),
            "milliseconds per 1 MB chunk (log scale)",
            1500,
            Charts.HEIGHT);
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setYAxisMin(0.01);
    chart.getStyler().setYAxisMax(1000.0);
    chart.getStyler().setXAxisLabelRotation(15);
    // Three bars a medium: upright labels would run into their neighbours.
    chart.getStyler().setLabelsRotation(90);
    chart.getStyler().setDecimalPattern("#,##0.0#");
    CategorySeries a =
        chart.addSeries("SpongeFiles, this machine (median write)", labels, measured);
    a.setFillColor(Charts.PLUGIN);
    CategorySeries b = chart.addSeries("machine limit for 1 MB (physical-limits)", labels, limit);
    b.setFillColor(Charts.BOUND);
    CategorySeries c = chart.addSeries("paper's Table 1 (1 GbE, 7200 rpm disk)", labels, paper);
    c.setFillColor(Charts.PAPER);
    return Charts.image(chart);
  }

  /**
   * The yardstick's MB/s from the latest physical-limits run (memcpy: the faster of heap and direct
   * buffers), else the limit the micro suite itself recorded.
   */
  private static double limitMbPerS(
      String yardstick, Map<String, List<Measurement>> limits, List<Measurement> microLines) {
    List<String> variants =
        switch (yardstick) {
          case "memcpy" -> List.of("memcpy-heap", "memcpy-direct");
          case "loopback TCP" -> List.of("tcp-loopback");
          case "disk write+fsync" -> List.of("disk-write-fsync");
          case "emulated disk write+fsync" -> List.of("disk-write-fsync-emulated");
          default -> List.of();
        };
    double best = Double.NaN;
    for (String v : variants) {
      List<Measurement> lines = limits.get(v);
      if (lines != null) {
        double mbPerS = Results.median(lines, "mb_per_s");
        if (Double.isNaN(best) || mbPerS > best) {
          best = mbPerS;
        }
      }
    }
    return Double.isNaN(best) ? Results.median(microLines, "limit_mb_per_s") : best;
  }
}
