package dev.levee.bench.hadoop.fuzz;

import dev.levee.bench.report.Charts;
import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The run at a glance: the server's direct memory against its configured bound and its resident set
 * over time, phases marked; and what became of the connections of each phase.
 */
final class FuzzFigure {
  static final String MEMORY_FILE = "sponge-fuzz-memory%s.png";
  static final String CLIENTS_FILE = "sponge-fuzz-clients%s.png";
  private static final double MIB = 1 << 20;

  private FuzzFigure() {}

  /**
   * Writes both figures into {@code dir}, their names ending in {@code fileSuffix} (empty for the
   * server's default limits, so runs with other limits do not replace them when published).
   */
  static void write(
      Path dir,
      List<ServerSampler.Sample> samples,
      List<double[]> phaseStarts,
      List<String> phaseNames,
      long directBound,
      List<Map<String, Double>> phaseLines,
      String limits,
      String fileSuffix,
      String revision)
      throws IOException {
    List<Double> t = samples.stream().map(ServerSampler.Sample::seconds).toList();
    XYChart direct =
        Charts.lines(
            "Server direct memory (JMX BufferPool 'direct')", "seconds into the run", "MiB");
    XYSeries d =
        direct.addSeries(
            "direct buffers in use", t, samples.stream().map(s -> s.directBytes() / MIB).toList());
    d.setMarker(SeriesMarkers.NONE);
    d.setLineColor(Charts.PLUGIN);
    XYSeries bound =
        direct.addSeries(
            String.format(
                Locale.ROOT, "bound: transfer buffers x chunk = %.0f MiB", directBound / MIB),
            List.of(t.get(0), t.get(t.size() - 1)),
            List.of(directBound / MIB, directBound / MIB));
    bound.setMarker(SeriesMarkers.NONE);
    bound.setLineColor(Charts.BOUND);
    bound.setLineStyle(new BasicStroke(3f));
    direct.getStyler().setYAxisMin(0.0);
    direct.getStyler().setYAxisMax(Math.max(directBound / MIB, maxOf(samples, true)) * 1.3);
    markPhases(direct, phaseStarts, phaseNames, directBound / MIB * 1.2);

    XYChart rss = Charts.lines("Server resident set (VmRSS)", "seconds into the run", "MiB");
    XYSeries r =
        rss.addSeries(
            "resident set, pool mapping included",
            t,
            samples.stream().map(s -> s.rssBytes() / MIB).toList());
    r.setMarker(SeriesMarkers.NONE);
    r.setLineColor(Charts.STOCK);
    rss.getStyler().setYAxisMin(0.0);
    double rssMax = samples.stream().mapToDouble(s -> s.rssBytes() / MIB).max().orElse(1);
    rss.getStyler().setYAxisMax(rssMax * 1.3);
    markPhases(rss, phaseStarts, phaseNames, rssMax * 1.2);

    CategoryChart clients =
        Charts.bars(
            "What became of each connection, per phase", "phase", "share of its connections (%)");
    clients.getStyler().setStacked(true);
    clients.getStyler().setYAxisMin(0.0);
    clients.getStyler().setYAxisMax(100.0);
    // Shares go in the category names: stacked bar labels of 0 and 100 would overprint.
    clients.getStyler().setLabelsVisible(false);
    List<String> names = new ArrayList<>();
    List<Double> served = new ArrayList<>();
    List<Double> refused = new ArrayList<>();
    List<Double> unanswered = new ArrayList<>();
    String[] phases = {"fuzz", "churn", "crowd"};
    for (int i = 0; i < phaseLines.size(); i++) {
      Map<String, Double> line = phaseLines.get(i);
      double[] o = outcomes(line);
      double n = Math.max(1, o[0] + o[1] + o[2]);
      names.add(
          String.format(
              Locale.ROOT,
              "%s, %,.0f: %.1f / %.1f / %.1f %%",
              phases[i],
              n,
              100 * o[0] / n,
              100 * o[1] / n,
              100 * o[2] / n));
      served.add(100 * o[0] / n);
      refused.add(100 * o[1] / n);
      unanswered.add(100 * o[2] / n);
    }
    clients
        .addSeries("answered (fuzz: replied or closed by the server)", names, served)
        .setFillColor(Charts.PLUGIN);
    clients
        .addSeries("refused: BUSY, reset or not accepted", names, refused)
        .setFillColor(Charts.STOCK);
    clients
        .addSeries("no answer within 5 s (fuzz: hung 10 s)", names, unanswered)
        .setFillColor(Charts.FAILED);

    String footnote =
        String.format(
            Locale.ROOT,
            "One server JVM (standalone daemon, no -Xmx), %s, a canary client throughout.",
            limits);
    String stamp =
        Charts.provenance(revision, java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());
    Charts.write(
        Charts.stamped(
            Charts.panels(
                "SpongeFiles server memory under fuzz and load (./levee bench sponge-fuzz)",
                List.of(Charts.image(direct), Charts.image(rss)),
                footnote),
            stamp),
        dir.resolve(String.format(MEMORY_FILE, fileSuffix)));
    Charts.write(
        Charts.stamped(
            Charts.panels(
                "SpongeFiles server: what became of each connection (./levee bench sponge-fuzz)",
                List.of(Charts.image(clients)),
                footnote),
            stamp),
        dir.resolve(String.format(CLIENTS_FILE, fileSuffix)));
  }

  private static void markPhases(
      XYChart chart, List<double[]> starts, List<String> names, double labelY) {
    for (int i = 0; i < starts.size(); i++) {
      double x = starts.get(i)[0];
      chart.addAnnotation(new AnnotationLine(x, true, false));
      // Alternate heights: short phases sit close together.
      double y = labelY * (i % 2 == 0 ? 1.0 : 0.9);
      chart.addAnnotation(new AnnotationText(names.get(i), x + 0.5, y, false));
    }
    chart.getStyler().setAnnotationLineColor(new Color(0x99, 0x99, 0x99));
    chart.getStyler().setAnnotationLineStroke(new BasicStroke(1f));
  }

  private static double maxOf(List<ServerSampler.Sample> samples, boolean direct) {
    return samples.stream()
        .mapToDouble(
            s -> direct ? s.directBytes() / MIB : Math.max(s.rssBytes() / MIB, s.threads()))
        .max()
        .orElse(1);
  }

  /** Answered, refused and unanswered connections of one phase's line. */
  static double[] outcomes(Map<String, Double> line) {
    if (line.containsKey("hangs")) {
      double n = line.getOrDefault("connections", 0.0) + line.getOrDefault("connect_failures", 0.0);
      double hangs = line.get("hangs");
      double refused = line.getOrDefault("connect_failures", 0.0);
      return new double[] {n - hangs - refused, refused, hangs};
    }
    return new double[] {
      line.getOrDefault("served", 0.0),
      line.getOrDefault("refused", 0.0),
      line.getOrDefault("unanswered", 0.0)
    };
  }
}
