package dev.levee.bench.gen;

import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import java.util.List;

/**
 * The URL of page id p of a synthetic web: a pure function of (web seed, p, domain law), shared by
 * the web and click-log datasets so that clicks generated with the web's seed and options join with
 * its pages on url.
 *
 * <p>Domains have Zipf popularity: a few hosts own most pages, as on the real web.
 */
public final class UrlScheme {
  private static final long URL_STREAM = 10;

  private final long webSeed;
  private final ZipfSampler domains;
  private final ZipfSampler pathWords;

  public UrlScheme(long webSeed, long domainCount, double domainSkew) {
    this.webSeed = webSeed;
    this.domains = new ZipfSampler(domainCount, domainSkew);
    this.pathWords = new ZipfSampler(10_000, 1.0);
  }

  /** The options that define the URL space; web and clicks both declare them. */
  static List<OptionSpec> options() {
    return List.of(
        OptionSpec.optional("domains", "N", "number of distinct domains", "100000"),
        OptionSpec.optional(
            "domain-s", "S", "Zipf exponent of domain popularity (pages per domain)", "1.0"));
  }

  static UrlScheme from(long webSeed, ParsedOptions options) {
    return new UrlScheme(
        webSeed, options.longAtLeast("domains", 1), options.doubleIn("domain-s", 0, 100, true));
  }

  /**
   * Appends the domain of page {@code pageId} and returns its rank, using {@code rng} as scratch.
   */
  long domainRank(long pageId, SplitMix64 rng) {
    rng.reseed(webSeed, URL_STREAM, pageId);
    return domains.sample(rng);
  }

  /**
   * Appends "http://www.host.tld/word/PAGEID.html" for page {@code pageId}, using {@code rng} as
   * scratch.
   */
  void appendUrl(long pageId, SplitMix64 rng, RecordBuffer out) {
    long domain = domainRank(pageId, rng); // leaves rng positioned for the path word
    long word = pathWords.sample(rng);
    out.ascii("http://");
    SyntheticNames.domain(domain, out);
    out.append('/');
    SyntheticNames.word(word, out);
    out.append('/').decimal(pageId).ascii(".html");
  }
}
