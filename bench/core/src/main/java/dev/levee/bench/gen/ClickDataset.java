package dev.levee.bench.gen;

import dev.levee.bench.cli.Range;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * A click log in time order, the input of the paper's Click-Sessions job: {@code timestamp_ms TAB
 * user TAB url}.
 *
 * <ul>
 *   <li>timestamp: click i falls in [start + i * gap, start + (i + 1) * gap), so the log is
 *       strictly increasing and spans records x gap milliseconds;
 *   <li>user: "u" plus a Zipf(user-s) rank, so a few users click often (long sessions) and most
 *       rarely (sessions of one click, separated by more than a session gap);
 *   <li>url: a page of the synthetic web ({@link UrlScheme}), page id Zipf(page-s); with the web
 *       dataset's seed and domain options the urls join with its pages.
 * </ul>
 */
public final class ClickDataset implements Dataset<ClickDataset.Options> {
  private static final long CLICK_STREAM = 41;

  @Override
  public String name() {
    return "clicks";
  }

  @Override
  public String summary() {
    return "click log: timestamp (ms, increasing), user (Zipf activity), url of a Zipf-popular page";
  }

  /** The dataset's options. */
  public static final class Options {
    @Mixin UrlScheme.Options urls = new UrlScheme.Options();

    @Option(names = "--users", paramLabel = "N", description = "distinct users")
    @Range(min = 1)
    long users = 100_000;

    @Option(names = "--user-s", paramLabel = "S", description = "Zipf exponent of clicks per user")
    @Range(min = 0, max = 100, exclusiveMin = true)
    double userS = 1.0;

    @Option(names = "--pages", paramLabel = "N", description = "distinct pages clicked")
    @Range(min = 1)
    long pages = 1_000_000;

    @Option(names = "--page-s", paramLabel = "S", description = "Zipf exponent of clicks per page")
    @Range(min = 0, max = 100, exclusiveMin = true)
    double pageS = 1.0;

    @Option(names = "--start-ms", paramLabel = "MS", description = "time of the first click")
    @Range(min = 0)
    long startMs = 1_767_225_600_000L;

    @Option(
        names = "--gap-ms",
        paramLabel = "MS",
        description = "mean time between two clicks of the log")
    @Range(min = 1)
    long gapMs = 10;
  }

  @Override
  public Options newOptions() {
    return new Options();
  }

  @Override
  public RecordGenerator configure(long seed, Options o) {
    return new Generator(
        seed,
        o.urls.scheme(seed),
        new ZipfSampler(o.users, o.userS),
        new ZipfSampler(o.pages, o.pageS),
        o.startMs,
        o.gapMs);
  }

  private record Generator(
      long seed, UrlScheme urls, ZipfSampler users, ZipfSampler pages, long startMs, long gapMs)
      implements RecordGenerator {
    @Override
    public void write(long index, SplitMix64 rng, RecordBuffer out) {
      rng.reseed(seed, CLICK_STREAM, index);
      long ts = startMs + index * gapMs + rng.nextLong(gapMs);
      long user = users.sample(rng);
      long page = pages.sample(rng);
      out.decimal(ts).tab().append('u').decimal(user).tab();
      urls.appendUrl(page, rng, out); // reseeds rng: every draw of this click is made above
      out.newline();
    }

    @Override
    public List<String> columns() {
      return List.of("timestamp_ms", "user", "url");
    }

    @Override
    public RecordGenerator copy() {
      return this; // all state lives in the rng the caller passes
    }
  }
}
