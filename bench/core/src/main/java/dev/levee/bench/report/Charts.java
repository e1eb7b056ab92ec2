package dev.levee.bench.report;

import dev.levee.bench.results.Measurement;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import javax.imageio.ImageIO;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;

/**
 * The house style of the report's figures, so that they read as one set: the same fonts, the same
 * colour for stock in every figure and another for the Levee plugin, values printed on bars, the
 * legend below the plot. Figures build their XChart charts here and compose panels with {@link
 * #panels}.
 */
public final class Charts {
  /** Stock Hadoop/Spark: always this grey. */
  public static final Color STOCK = new Color(0x8c, 0x8c, 0x8c);

  /** The Levee plugin: always this blue. */
  public static final Color PLUGIN = new Color(0x1f, 0x77, 0xb4);

  /** A bound or limit drawn for reference (no-spill time, the machine's bandwidth). */
  public static final Color BOUND = new Color(0x2c, 0xa0, 0x2c);

  /** A published number from the paper, for comparison. */
  public static final Color PAPER = new Color(0xff, 0x7f, 0x0e);

  /** A failed run. */
  public static final Color FAILED = new Color(0xd6, 0x27, 0x28);

  public static final int WIDTH = 1100;
  public static final int HEIGHT = 650;

  private static final String FONT = Font.SANS_SERIF;

  static {
    // Figures are drawn on servers and in CI without a display.
    System.setProperty("java.awt.headless", "true");
  }

  private Charts() {}

  /** A bar chart in the house style; add series with {@code chart.addSeries}. */
  public static CategoryChart bars(String title, String xAxisTitle, String yAxisTitle) {
    return bars(title, xAxisTitle, yAxisTitle, WIDTH, HEIGHT);
  }

  /** A bar chart of the given size, for a panel of {@link #panels}. */
  public static CategoryChart bars(
      String title, String xAxisTitle, String yAxisTitle, int width, int height) {
    CategoryChart chart = categories(title, xAxisTitle, yAxisTitle, width, height);
    chart.getStyler().setLabelsVisible(true);
    // XChart centres a value label on the point it is given: at the bar's top it straddles the
    // edge, so labels sit inside the bar, in white or black for contrast with its fill.
    chart.getStyler().setLabelsFontColorAutomaticEnabled(true);
    chart.getStyler().setLabelsFontColorAutomaticLight(Color.WHITE);
    chart.getStyler().setLabelsFontColorAutomaticDark(Color.BLACK);
    chart.getStyler().setLabelsFont(new Font(FONT, Font.BOLD, 13));
    chart.getStyler().setLabelsPosition(0.5);
    chart.getStyler().setAvailableSpaceFill(0.8);
    chart.getStyler().setErrorBarsColor(Color.DARK_GRAY);
    return chart;
  }

  /**
   * Lines over named points (servers 32, 100, 320, 1000; memories 32 MB, 48 MB, ...): every x gets
   * its label, which a logarithmic XChart axis labels only at decades. Points are spaced evenly, so
   * steps of equal ratio read as a log scale.
   */
  public static CategoryChart categoryLines(
      String title, String xAxisTitle, String yAxisTitle, int width, int height) {
    CategoryChart chart = categories(title, xAxisTitle, yAxisTitle, width, height);
    chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Line);
    // XChart offsets each series within its category as if it were a bar; with almost no width
    // for bars, every series' point for one x sits at that x.
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setAvailableSpaceFill(0.001);
    chart.getStyler().setMarkerSize(9);
    chart.getStyler().setPlotGridVerticalLinesVisible(true);
    return chart;
  }

  private static CategoryChart categories(
      String title, String xAxisTitle, String yAxisTitle, int width, int height) {
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(width)
            .height(height)
            .title(title)
            .xAxisTitle(xAxisTitle)
            .yAxisTitle(yAxisTitle)
            .build();
    style(chart.getStyler());
    return chart;
  }

  /** NaN as null, which XChart leaves out (no point, no bar) instead of drawing it as zero. */
  public static List<Double> gaps(List<Double> values) {
    List<Double> out = new ArrayList<>();
    for (Double v : values) {
      out.add(v == null || Double.isNaN(v) ? null : v);
    }
    return out;
  }

  /** A line/scatter chart in the house style (sweeps, ladders). */
  public static XYChart lines(String title, String xAxisTitle, String yAxisTitle) {
    XYChart chart =
        new XYChartBuilder()
            .width(WIDTH)
            .height(HEIGHT)
            .title(title)
            .xAxisTitle(xAxisTitle)
            .yAxisTitle(yAxisTitle)
            .build();
    style(chart.getStyler());
    chart.getStyler().setMarkerSize(9);
    return chart;
  }

  private static void style(AxesChartStyler s) {
    s.setChartBackgroundColor(Color.WHITE);
    s.setPlotBackgroundColor(Color.WHITE);
    s.setPlotBorderVisible(false);
    s.setPlotGridVerticalLinesVisible(false);
    s.setPlotGridLinesColor(new Color(0xdd, 0xdd, 0xdd));
    s.setChartTitleFont(new Font(FONT, Font.BOLD, 18));
    s.setChartTitleBoxVisible(false);
    s.setAxisTitleFont(new Font(FONT, Font.PLAIN, 15));
    s.setAxisTickLabelsFont(new Font(FONT, Font.PLAIN, 13));
    s.setLegendFont(new Font(FONT, Font.PLAIN, 14));
    s.setLegendPosition(Styler.LegendPosition.OutsideS);
    s.setLegendLayout(Styler.LegendLayout.Horizontal);
    s.setLegendBorderColor(Color.WHITE);
    s.setAnnotationTextFont(new Font(FONT, Font.PLAIN, 13));
    s.setAnnotationTextPanelFont(new Font(FONT, Font.PLAIN, 13));
    s.setToolTipsEnabled(false);
  }

  public static BufferedImage image(Chart<?, ?> chart) {
    return BitmapEncoder.getBufferedImage(chart);
  }

  /**
   * Panels side by side under one title, with a footnote line below: for figures whose panels need
   * their own y scale (seconds of a Hadoop job next to seconds of a Spark job).
   */
  public static BufferedImage panels(String title, List<BufferedImage> panels, String footnote) {
    return panels(
        title, panels, footnote == null || footnote.isEmpty() ? List.of() : List.of(footnote));
  }

  /**
   * Panels side by side under one title, with note lines below (each wrapped to the figure's
   * width): what a panel's own title cannot hold goes here, never off a panel's edge.
   */
  public static BufferedImage panels(String title, List<BufferedImage> panels, List<String> notes) {
    return panels(title, panels, notes, Math.max(1, panels.size()));
  }

  /**
   * Panels in rows of at most {@code columns}, under one title, with note lines below: a figure of
   * many panels stays readable instead of one strip wider than a page.
   */
  public static BufferedImage panels(
      String title, List<BufferedImage> panels, List<String> notes, int columns) {
    List<List<BufferedImage>> rows = new ArrayList<>();
    for (int i = 0; i < panels.size(); i += columns) {
      rows.add(panels.subList(i, Math.min(panels.size(), i + columns)));
    }
    int w = 0;
    int h = 0;
    for (List<BufferedImage> row : rows) {
      w = Math.max(w, row.stream().mapToInt(BufferedImage::getWidth).sum());
      h += row.stream().mapToInt(BufferedImage::getHeight).max().orElse(0);
    }
    // A title wider than the panels is wrapped, not cut at the figure's edges.
    Font titleFont = new Font(FONT, Font.BOLD, 20);
    List<String> titleLines = title.isEmpty() ? List.of() : wrapToWidth(title, titleFont, w - 20);
    int top = title.isEmpty() ? 0 : 50 + 26 * (titleLines.size() - 1);
    // About 7.5 pixels per character of the 14-point note font.
    List<String> lines = new ArrayList<>();
    int width = w;
    notes.forEach(n -> lines.addAll(wrap(n, Math.max(40, (width - 30) * 2 / 15))));
    int bottom = 10 + 22 * lines.size();
    BufferedImage out = new BufferedImage(w, h + top + bottom, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, out.getWidth(), out.getHeight());
      g.setColor(Color.BLACK);
      g.setFont(titleFont);
      for (int i = 0; i < titleLines.size(); i++) {
        int tw = g.getFontMetrics().stringWidth(titleLines.get(i));
        g.drawString(titleLines.get(i), Math.max(10, (w - tw) / 2), 32 + 26 * i);
      }
      int y = top;
      for (List<BufferedImage> row : rows) {
        int rowHeight = row.stream().mapToInt(BufferedImage::getHeight).max().orElse(0);
        int x = 0;
        for (BufferedImage p : row) {
          g.drawImage(p, x, y, null);
          x += p.getWidth();
        }
        // Separators after the row's panels, which would paint over them.
        g.setColor(new Color(0xcc, 0xcc, 0xcc));
        g.setStroke(new BasicStroke(1));
        x = 0;
        for (int i = 0; i < row.size() - 1; i++) {
          x += row.get(i).getWidth();
          g.drawLine(x, y + 10, x, y + rowHeight - 10);
        }
        y += rowHeight;
      }
      g.setColor(Color.DARK_GRAY);
      g.setFont(new Font(FONT, Font.PLAIN, 14));
      for (int i = 0; i < lines.size(); i++) {
        g.drawString(lines.get(i), 15, top + h + 22 + 22 * i);
      }
    } finally {
      g.dispose();
    }
    return out;
  }

  /**
   * Where a figure's numbers come from, for the strip under it: the revisions and the dates of the
   * lines drawn ("Levee 5c0c6c2, measured 2026-11-22"), so that a reader can tell two runs apart at
   * a glance. A revision built from uncommitted changes is marked "+ local changes".
   */
  public static String provenance(Collection<Measurement> lines) {
    return provenance(
        lines.stream().map(Measurement::gitRevision).toList(),
        lines.stream().map(Measurement::timestamp).toList());
  }

  /**
   * The same strip from the revisions and ISO timestamps of the lines drawn, for a suite that reads
   * its results back into its own types.
   */
  public static String provenance(Collection<String> gitRevisions, Collection<String> timestamps) {
    TreeSet<String> revisions = new TreeSet<>();
    TreeSet<String> dates = new TreeSet<>();
    boolean dirty = false;
    for (String rev : gitRevisions) {
      if (rev != null && !rev.isEmpty()) {
        dirty |= rev.endsWith("-dirty");
        revisions.add(rev.substring(0, Math.min(7, rev.length())));
      }
    }
    for (String t : timestamps) {
      if (t != null && t.length() >= 10) {
        dates.add(t.substring(0, 10));
      }
    }
    return provenance(revisions, dirty, dates);
  }

  /** The strip's text for a figure drawn from a run in progress: its revision and today's date. */
  public static String provenance(String revision, String isoDate) {
    String rev = revision == null ? "" : revision;
    return provenance(
        rev.isEmpty()
            ? new TreeSet<>()
            : new TreeSet<>(List.of(rev.substring(0, Math.min(7, rev.length())))),
        rev.endsWith("-dirty"),
        new TreeSet<>(List.of(isoDate.substring(0, Math.min(10, isoDate.length())))));
  }

  private static String provenance(
      TreeSet<String> revisions, boolean dirty, TreeSet<String> dates) {
    String rev =
        revisions.isEmpty()
            ? "Levee (revision unknown)"
            : revisions.size() <= 3
                ? "Levee " + String.join(", ", revisions)
                : "Levee " + revisions.size() + " revisions";
    if (dirty) {
      rev += " + local changes";
    }
    String when =
        dates.isEmpty()
            ? ""
            : dates.size() == 1
                ? ", measured " + dates.first()
                : ", measured " + dates.first() + " to " + dates.last();
    return rev + when;
  }

  /**
   * The figure with a strip below naming where its numbers come from (see {@link #provenance}):
   * every figure carries one, whichever code drew it.
   */
  public static BufferedImage stamped(BufferedImage figure, String provenance) {
    int strip = 24;
    BufferedImage out =
        new BufferedImage(
            figure.getWidth(), figure.getHeight() + strip, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, out.getWidth(), out.getHeight());
      g.drawImage(figure, 0, 0, null);
      g.setColor(Color.GRAY);
      g.setFont(new Font(FONT, Font.PLAIN, 12));
      String text = provenance;
      int room = figure.getWidth() - 20;
      while (g.getFontMetrics().stringWidth(text) > room && text.length() > 4) {
        text = text.substring(0, text.length() - 2);
      }
      g.drawString(
          text,
          figure.getWidth() - 10 - g.getFontMetrics().stringWidth(text),
          figure.getHeight() + 16);
    } finally {
      g.dispose();
    }
    return out;
  }

  /**
   * Lines no wider than {@code widthPx} in {@code font}, broken at spaces (a longer word stands
   * alone).
   */
  static List<String> wrapToWidth(String text, Font font, int widthPx) {
    BufferedImage scratch = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = scratch.createGraphics();
    try {
      java.awt.FontMetrics metrics = g.getFontMetrics(font);
      List<String> lines = new ArrayList<>();
      String line = "";
      for (String word : text.split(" ")) {
        String longer = line.isEmpty() ? word : line + " " + word;
        if (!line.isEmpty() && metrics.stringWidth(longer) > widthPx) {
          lines.add(line);
          line = word;
        } else {
          line = longer;
        }
      }
      if (!line.isEmpty()) {
        lines.add(line);
      }
      return lines;
    } finally {
      g.dispose();
    }
  }

  /**
   * Lines of at most {@code maxChars} characters, broken at spaces, for notes under a figure that
   * must not run off its edge.
   */
  public static List<String> wrap(String text, int maxChars) {
    List<String> lines = new ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > maxChars) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    if (line.length() > 0) {
      lines.add(line.toString());
    }
    return lines;
  }

  /**
   * Room above the tallest bar for its value label: XChart centres a label on the bar's top, so
   * without it the label straddles the top edge.
   */
  public static void headroom(CategoryChart chart, double max) {
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(max <= 0 ? 1.0 : max * 1.15);
  }

  /** Writes a PNG, creating the directory. */
  public static void write(BufferedImage image, Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    if (!ImageIO.write(image, "png", file.toFile())) {
      throw new IOException("no PNG writer for " + file);
    }
  }

  /**
   * A dashed dark line across a bar chart at {@code y}: the goal its bars are judged against, drawn
   * wherever a title or legend names one (say "dashed" there: the line carries no label).
   */
  public static void goalLine(CategoryChart chart, double y) {
    chart.addAnnotation(new AnnotationLine(y, false, false));
    chart.getStyler().setAnnotationLineColor(Color.DARK_GRAY);
    chart
        .getStyler()
        .setAnnotationLineStroke(
            new BasicStroke(
                2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, new float[] {8f, 6f}, 0f));
  }

  /** A value as a bar label: "1.2", "34.5", "1,234". */
  public static String number(double v) {
    double a = Math.abs(v);
    if (a >= 100) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    if (a >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    return String.format(Locale.ROOT, a >= 1 ? "%.2f" : "%.3f", v);
  }
}
