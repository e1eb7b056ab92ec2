package dev.levee.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Font;
import java.awt.image.BufferedImage;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartsTest {
  private static final String LONG_TITLE =
      "ClickLog under skew: each arm's reduce-stage time over its own uniform run (thesis Fig. 4.11's measure)";

  @Test
  void aTitleWiderThanOnePanelWrapsAndTheFigureGrowsToHoldIt() {
    BufferedImage panel = Charts.image(Charts.lines("one regime", "s", "slowdown"));
    BufferedImage shortTitle = Charts.panels("short", List.of(panel), List.of());
    BufferedImage longTitle = Charts.panels(LONG_TITLE, List.of(panel), List.of());
    List<String> lines =
        Charts.wrapToWidth(
            LONG_TITLE, new Font(Font.SANS_SERIF, Font.BOLD, 20), panel.getWidth() - 20);
    assertTrue(lines.size() >= 2, "the title is wider than one panel: " + lines);
    assertEquals(LONG_TITLE, String.join(" ", lines), "no word is lost in the wrap");
    assertEquals(shortTitle.getHeight() + 26 * (lines.size() - 1), longTitle.getHeight());
  }

  @Test
  void aWordWiderThanTheLineStandsAloneRatherThanVanishing() {
    List<String> lines =
        Charts.wrapToWidth(
            "a supercalifragilistic b", new Font(Font.SANS_SERIF, Font.BOLD, 20), 30);
    assertEquals(List.of("a", "supercalifragilistic", "b"), lines);
  }
}
