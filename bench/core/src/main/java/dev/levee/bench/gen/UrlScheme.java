package dev.levee.bench.gen;

import dev.levee.bench.cli.Range;
import picocli.CommandLine.Option;

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

  /** The options that define the URL space; web and clicks both mix them in. */
  static final class Options {
    @Option(names = "--domains", paramLabel = "N", description = "number of distinct domains")
    @Range(min = 1)
    long domains = 100_000;

    @Option(
        names = "--domain-s",
        paramLabel = "S",
        description = "Zipf exponent of domain popularity (pages per domain)")
    @Range(min = 0, max = 100, exclusiveMin = true)
    double domainS = 1.0;

    UrlScheme scheme(long webSeed) {
      return new UrlScheme(webSeed, domains, domainS);
    }
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
