package dev.levee.it.sponge.pig;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The SpongeFiles paper's Spam Quantiles shape as data and a script: pages of one hot site (60,000
 * rows) among twelve others (1,500 rows each), shuffled, and a GROUP BY site whose groups feed a
 * nested ORDER BY, a nested DISTINCT and two holistic UDFs, in one reducer. Shared by the
 * mini-cluster test ({@link PigBagsOnYarnTest}) and the container tier's Pig run.
 */
public final class SpamPages {
  public static final int HOT_ROWS = 60_000;
  public static final int OTHER_SITES = 12;
  public static final int ROWS_PER_OTHER_SITE = 1_500;

  private SpamPages() {}

  /** The rows, tab-separated: site, n, score, anchor text; the same on every call. */
  public static List<String> rows() {
    List<String> rows = new ArrayList<>();
    Random r = new Random(15);
    for (int i = 0; i < HOT_ROWS; i++) {
      rows.add(row("hot.example", r));
    }
    for (int s = 0; s < OTHER_SITES; s++) {
      for (int i = 0; i < ROWS_PER_OTHER_SITE; i++) {
        rows.add(row("site" + s + ".example", r));
      }
    }
    Collections.shuffle(rows, r);
    return rows;
  }

  /** The script's statements, reading {@code input} and storing to {@code output}. */
  public static List<String> queries(String input, String output) {
    return List.of(
        "pages = LOAD '" + input + "' AS (site:chararray, n:long, score:double, anchor:chararray);",
        "by_site = GROUP pages BY site PARALLEL 1;",
        "stats = FOREACH by_site { by_score = ORDER pages BY score, n; ns = DISTINCT pages.n;"
            + " GENERATE group, COUNT(pages), "
            + Quantiles.class.getName()
            + "(by_score), "
            + SpamQuantiles.class.getName()
            + "(pages), COUNT(ns); };",
        "STORE stats INTO '" + output + "';");
  }

  private static String row(String site, Random r) {
    return site
        + "\t"
        + r.nextInt(40_000)
        + "\t"
        + String.format(Locale.ROOT, "%.4f", r.nextDouble())
        + "\t"
        + "anchor text ".repeat(12);
  }
}
