package dev.levee.bench.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
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
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(width)
            .height(height)
            .title(title)
            .xAxisTitle(xAxisTitle)
            .yAxisTitle(yAxisTitle)
            .build();
    style(chart.getStyler());
    chart.getStyler().setLabelsVisible(true);
    chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
    chart.getStyler().setLabelsFontColor(Color.BLACK);
    chart.getStyler().setLabelsFont(new Font(FONT, Font.PLAIN, 13));
    chart.getStyler().setLabelsPosition(1.0);
    chart.getStyler().setAvailableSpaceFill(0.8);
    chart.getStyler().setErrorBarsColor(Color.DARK_GRAY);
    return chart;
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
    int w = panels.stream().mapToInt(BufferedImage::getWidth).sum();
    int h = panels.stream().mapToInt(BufferedImage::getHeight).max().orElse(0);
    int top = 50;
    int bottom = footnote == null || footnote.isEmpty() ? 10 : 40;
    BufferedImage out = new BufferedImage(w, h + top + bottom, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = out.createGraphics();
    try {
      g.setRenderingHint(
          RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
      g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
      g.setColor(Color.WHITE);
      g.fillRect(0, 0, out.getWidth(), out.getHeight());
      g.setColor(Color.BLACK);
      g.setFont(new Font(FONT, Font.BOLD, 20));
      int tw = g.getFontMetrics().stringWidth(title);
      g.drawString(title, Math.max(10, (w - tw) / 2), 32);
      int x = 0;
      for (BufferedImage p : panels) {
        g.drawImage(p, x, top, null);
        x += p.getWidth();
      }
      g.setColor(new Color(0xcc, 0xcc, 0xcc));
      g.setStroke(new BasicStroke(1));
      x = 0;
      for (int i = 0; i < panels.size() - 1; i++) {
        x += panels.get(i).getWidth();
        g.drawLine(x, top + 10, x, top + h - 10);
      }
      if (bottom > 10) {
        g.setColor(Color.DARK_GRAY);
        g.setFont(new Font(FONT, Font.PLAIN, 14));
        g.drawString(footnote, 15, top + h + 26);
      }
    } finally {
      g.dispose();
    }
    return out;
  }

  /** Writes a PNG, creating the directory. */
  public static void write(BufferedImage image, Path file) throws IOException {
    Files.createDirectories(file.toAbsolutePath().getParent());
    if (!ImageIO.write(image, "png", file.toFile())) {
      throw new IOException("no PNG writer for " + file);
    }
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
