package dev.levee.piranha.examples.web;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.io.Text;

/**
 * The columns of one {@code web} line the paper's queries read ({@code url TAB domain TAB language
 * TAB spam_score TAB inlinks TAB anchor_text}), split as Pig's PigStorage splits it.
 */
record WebColumns(String domain, String spamScore, String anchorText) {
  static final int COLUMNS = 6;

  /** The line's columns, or null for a line without all six. */
  static WebColumns of(Text line) {
    String[] c =
        new String(line.getBytes(), 0, line.getLength(), StandardCharsets.UTF_8).split("\t", -1);
    if (c.length != COLUMNS) {
      return null;
    }
    return new WebColumns(c[1], c[3], c[5]);
  }

  /**
   * The spam score in thousandths, as Pig's {@code (long) ROUND(spam_score * 1000.0)} computes it:
   * the generator writes three decimals, so the average over a domain is compared exactly, not
   * through a sum of doubles whose rounding depends on the order the pages arrive in.
   */
  long spamMillis() {
    return Math.round(Double.parseDouble(spamScore) * 1000.0);
  }
}
