package dev.levee.bench.hadoop.median.pig;

import java.util.List;
import org.apache.hadoop.fs.Path;

/**
 * The paper's two Pig queries over {@link WebPages}, each one MapReduce job with a single reducer
 * (the paper's straggler holding the skewed groups).
 */
public final class PigQueries {
  /** The paper's k. */
  public static final int TOP_K = 10;

  private PigQueries() {}

  /**
   * Frequent Anchortext: pages grouped by language, the top anchor-text terms of each. Unlike Spam
   * Quantiles this query projects before it groups, so each bag holds (language, anchor text) only
   * (Pig 0.18 did not prune the unused columns of the grouped relation by itself: the reducer
   * received whole pages).
   */
  public static List<String> frequentAnchortext(Path input, Path output) {
    return List.of(
        "DEFINE TopTerms " + TopTerms.class.getName() + "('" + TOP_K + "');",
        load(input),
        "texts = FOREACH pages GENERATE language, anchor_text;",
        "by_language = GROUP texts BY language PARALLEL 1;",
        "top = FOREACH by_language GENERATE group, TopTerms(texts.anchor_text);",
        "STORE top INTO '" + output + "';");
  }

  /** Spam Quantiles: pages grouped by domain, the spam-score deciles of each, nothing projected. */
  public static List<String> spamQuantiles(Path input, Path output) {
    return List.of(
        load(input),
        "by_domain = GROUP pages BY domain PARALLEL 1;",
        "quantiles = FOREACH by_domain GENERATE group, "
            + SpamQuantiles.class.getName()
            + "(pages);",
        "STORE quantiles INTO '" + output + "';");
  }

  private static String load(Path input) {
    return "pages = LOAD '" + input + "' AS " + WebPages.schema() + ";";
  }
}
