package dev.levee.bench.gen;

import dev.levee.bench.cli.Range;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A synthetic web crawl, one page per line, record number = page id: {@code url TAB domain TAB
 * language TAB spam_score TAB inlinks TAB anchor_text}.
 *
 * <ul>
 *   <li>domain: Zipf popularity (see {@link UrlScheme}); the url embeds it and the page id, so urls
 *       are unique;
 *   <li>language: a fixed categorical mix, English-heavy;
 *   <li>spam_score: u^4 for uniform u, three decimals: most pages clean, a long tail of spammy ones
 *       (mean 0.2);
 *   <li>inlinks: floor(Pareto(alpha, 1, max)) - 1, so most pages have none or few and some have
 *       millions;
 *   <li>anchor_text: 1..k space-separated words, each Zipf(1) over a synthetic vocabulary.
 * </ul>
 */
public final class WebDataset implements Dataset<WebDataset.Options> {
  private static final long FIELDS_STREAM = 11;
  static final String[] LANGUAGES = {
    "en", "de", "fr", "ja", "es", "ru", "zh", "pt", "it", "nl", "pl"
  };
  static final int[] LANGUAGE_PERCENT = {50, 8, 6, 6, 6, 5, 5, 4, 4, 3, 3};

  @Override
  public String name() {
    return "web";
  }

  @Override
  public String summary() {
    return "web pages: url, domain (Zipf popularity), language, spam score, in-link count, anchor-text words";
  }

  /** The dataset's options. */
  public static final class Options {
    @Mixin UrlScheme.Options urls = new UrlScheme.Options();

    @Option(
        names = "--inlink-alpha",
        paramLabel = "A",
        description = "Pareto exponent of in-link counts")
    @Range(min = 0, max = 100, exclusiveMin = true)
    double inlinkAlpha = 1.1;

    @Option(names = "--max-inlinks", paramLabel = "N", description = "largest in-link count")
    @Range(min = 0)
    long maxInlinks = 10_000_000;

    @Option(names = "--vocabulary", paramLabel = "N", description = "anchor-text vocabulary size")
    @Range(min = 1)
    long vocabulary = 50_000;

    @Option(
        names = "--anchor-words",
        paramLabel = "K",
        description = "most words in one anchor text")
    @Range(min = 1, max = 1000)
    int anchorWords = 6;
  }

  @Override
  public Options newOptions() {
    return new Options();
  }

  @Override
  public RecordGenerator configure(long seed, Options o) {
    ParetoSampler inlinks = new ParetoSampler(o.inlinkAlpha, 1, o.maxInlinks + 1.0);
    return new Generator(
        seed, o.urls.scheme(seed), inlinks, new ZipfSampler(o.vocabulary, 1.0), o.anchorWords);
  }

  static String language(SplitMix64 rng) {
    int p = rng.nextInt(100);
    for (int i = 0; i < LANGUAGES.length; i++) {
      p -= LANGUAGE_PERCENT[i];
      if (p < 0) {
        return LANGUAGES[i];
      }
    }
    throw new AssertionError("language weights must add up to 100");
  }

  private record Generator(
      long seed, UrlScheme urls, ParetoSampler inlinks, ZipfSampler vocabulary, int anchorWords)
      implements RecordGenerator {

    @Override
    public void write(long index, SplitMix64 rng, RecordBuffer out) {
      urls.appendUrl(index, rng, out);
      out.tab();
      SyntheticNames.domain(urls.domainRank(index, rng), out);
      rng.reseed(seed, FIELDS_STREAM, index);
      out.tab().ascii(language(rng));
      double u = rng.nextDouble();
      out.tab().fraction3(u * u * u * u);
      out.tab().decimal((long) inlinks.sample(rng) - 1);
      out.tab();
      int words = 1 + rng.nextInt(anchorWords);
      for (int w = 0; w < words; w++) {
        if (w > 0) {
          out.append(' ');
        }
        SyntheticNames.word(vocabulary.sample(rng), out);
      }
      out.newline();
    }

    @Override
    public List<String> columns() {
      return List.of("url", "domain", "language", "spam_score", "inlinks", "anchor_text");
    }

    @Override
    public RecordGenerator copy() {
      return this; // all state lives in the rng the caller passes
    }
  }
}
