package dev.levee.bench.gen;

import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import java.util.ArrayList;
import java.util.List;

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
public final class ClickDataset implements Dataset {
  private static final long CLICK_STREAM = 41;

  @Override
  public String name() {
    return "clicks";
  }

  @Override
  public String summary() {
    return "click log: timestamp (ms, increasing), user (Zipf activity), url of a Zipf-popular page";
  }

  @Override
  public List<OptionSpec> options() {
    List<OptionSpec> o = new ArrayList<>(UrlScheme.options());
    o.add(OptionSpec.optional("users", "N", "distinct users", "100000"));
    o.add(OptionSpec.optional("user-s", "S", "Zipf exponent of clicks per user", "1.0"));
    o.add(OptionSpec.optional("pages", "N", "distinct pages clicked", "1000000"));
    o.add(OptionSpec.optional("page-s", "S", "Zipf exponent of clicks per page", "1.0"));
    o.add(OptionSpec.optional("start-ms", "MS", "time of the first click", "1767225600000"));
    o.add(OptionSpec.optional("gap-ms", "MS", "mean time between two clicks of the log", "10"));
    return o;
  }

  @Override
  public RecordGenerator configure(long seed, ParsedOptions options) {
    return new Generator(
        seed,
        UrlScheme.from(seed, options),
        new ZipfSampler(options.longAtLeast("users", 1), options.doubleIn("user-s", 0, 100, true)),
        new ZipfSampler(options.longAtLeast("pages", 1), options.doubleIn("page-s", 0, 100, true)),
        options.longAtLeast("start-ms", 0),
        options.longAtLeast("gap-ms", 1));
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
