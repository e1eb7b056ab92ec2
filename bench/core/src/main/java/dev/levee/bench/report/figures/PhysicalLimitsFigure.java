package dev.levee.bench.report.figures;

import dev.levee.bench.report.Charts;
import dev.levee.bench.report.Figure;
import dev.levee.bench.report.Results;
import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import java.awt.image.BufferedImage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategorySeries;

/**
 * The machine's measured limits, the yardsticks every other figure is read against: bandwidth of
 * each probe of the latest {@code physical-limits} run, median with min..max over its repetitions.
 */
public final class PhysicalLimitsFigure implements Figure {
  static final String SUITE = "physical-limits";

  /** Probe variants with readable names, memory first, then network, then disk. */
  private static final Map<String, String> PROBES = new LinkedHashMap<>();

  static {
    PROBES.put("memcpy-heap", "memcpy (heap)");
    PROBES.put("memcpy-direct", "memcpy (direct)");
    PROBES.put("shm-mmap-rewrite", "/dev/shm mmap, rewrite");
    PROBES.put("shm-mmap-write-new", "/dev/shm mmap, new");
    PROBES.put("tcp-loopback", "loopback TCP");
    PROBES.put("disk-write-fsync", "disk write + fsync");
    PROBES.put("disk-read-direct", "disk read, O_DIRECT");
    // The emulated spinning disk (--disk emulated), beside the real one it runs on.
    PROBES.put("disk-write-fsync-emulated", "EMULATED write + fsync");
    PROBES.put("disk-read-direct-emulated", "EMULATED read, O_DIRECT");
    PROBES.put("disk-read-cached-emulated", "EMULATED read");
  }

  @Override
  public String file() {
    return "physical-limits-bandwidth.png";
  }

  @Override
  public String caption() {
    return "This machine's measured limits (`./levee bench physical-limits`): MB/s of each probe,"
        + " median of the latest run's repetitions (min..max beside each name), log scale. Every spill"
        + " medium and job in the other figures is bounded by one of these. EMULATED bars are the"
        + " emulated 7200-rpm disk (`--disk emulated`: 120 MB/s, 8 ms per seek, through FUSE) on"
        + " this machine's disk, not a real spindle.";
  }

  @Override
  public List<String> suites() {
    return List.of(SUITE);
  }

  @Override
  public boolean canDraw(Results results) {
    return results.of(SUITE).stream().anyMatch(m -> m.metrics().containsKey("mb_per_s"));
  }

  @Override
  public List<Measurement> drawnFrom(Results results) {
    return results.latestRuns(SUITE);
  }

  @Override
  public BufferedImage draw(Results results) {
    Map<String, List<Measurement>> latest = results.latestRunByVariant(SUITE);
    List<String> labels = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    List<String> order = new ArrayList<>(PROBES.keySet());
    latest.keySet().stream().filter(v -> !PROBES.containsKey(v)).forEach(order::add);
    Measurement any = null;
    for (String variant : order) {
      List<Measurement> lines = latest.get(variant);
      if (lines == null) {
        continue;
      }
      List<Double> v =
          lines.stream().map(m -> m.metrics().get("mb_per_s")).filter(Objects::nonNull).toList();
      if (v.isEmpty()) {
        continue;
      }
      any = lines.get(0);
      Summary s = Summary.of(v);
      // XChart draws whiskers symmetric in linear units, wrong on a log axis: the range goes in
      // the name instead.
      labels.add(
          String.format(
              Locale.ROOT,
              "%s (%,.0f..%,.0f)",
              PROBES.getOrDefault(variant, variant),
              s.min(),
              s.max()));
      y.add(s.median());
    }
    Map<String, Object> machine = any == null ? Map.of() : any.machine();
    String host =
        String.format(
            Locale.ROOT,
            "probe (min..max of the run's repetitions)   (%s cores, %.0f GB, %s)",
            machine.getOrDefault("cores", "?"),
            machine.get("memory_bytes") instanceof Number n ? n.doubleValue() / 1e9 : 0.0,
            machine.getOrDefault("cpu_model", "?"));
    CategoryChart chart =
        Charts.bars(
            "This machine's physical limits: bandwidth per probe",
            host,
            "MB/s (10^6 bytes/s, log scale; median)",
            1400,
            Charts.HEIGHT);
    // Log scale: the emulated disk's ~100 MB/s must stay readable beside memcpy's ~5,000.
    chart.getStyler().setYAxisLogarithmic(true);
    chart.getStyler().setYAxisMin(10.0);
    chart.getStyler().setYAxisMax(20_000.0);
    chart.getStyler().setDecimalPattern("#,##0");
    chart.getStyler().setXAxisLabelRotation(25);
    chart.getStyler().setLegendVisible(false);
    // Mid-bar, clear of the whiskers.
    chart.getStyler().setLabelsPosition(0.5);
    CategorySeries s = chart.addSeries("median MB/s", labels, y);
    s.setFillColor(Charts.BOUND);
    return Charts.image(chart);
  }
}
