package dev.levee.bench.gen;

import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Synthetic click logs, one click per line in time order: {@code timestamp_ms TAB user TAB url TAB
 * referrer TAB dwell_ms}.
 *
 * <ul>
 *   <li>timestamp: records are spread evenly over [start, start + span) with jitter inside each
 *       record's slot, so the log is non-decreasing in time whatever the split into files;
 *   <li>user: "u" + rank, Zipf over the users (a few heavy users, the join/group-by skew case);
 *   <li>url: a page of the {@code web} dataset, Zipf over its first {@code pages} page ids;
 *       generated with the web dataset's seed and domain options (--web-seed, --domains,
 *       --domain-s) it joins with it on url;
 *   <li>referrer: another page's url, or "-" for a direct visit;
 *   <li>dwell_ms: Pareto(1.5, 500 ms, 1 h).
 * </ul>
 */
public final class ClickLogDataset implements Dataset {
  private static final long FIELDS_STREAM = 21;
  private static final long PAGE_STREAM = 22;

  @Override
  public String name() {
    return "clicks";
  }

  @Override
  public String summary() {
    return "click log: timestamp, user (Zipf), url (Zipf over web pages), referrer, dwell time";
  }

  @Override
  public List<OptionSpec> options() {
    List<OptionSpec> o = new ArrayList<>();
    o.add(OptionSpec.optional("users", "N", "number of distinct users", "1000000"));
    o.add(OptionSpec.optional("user-s", "S", "Zipf exponent of clicks per user", "0.9"));
    o.add(OptionSpec.optional("pages", "N", "clicked pages are web page ids 0..N-1", "1000000"));
    o.add(OptionSpec.optional("page-s", "S", "Zipf exponent of clicks per page", "1.0"));
    o.add(
        OptionSpec.optional(
            "web-seed", "S", "seed of the web dataset the urls come from (default: --seed)", ""));
    o.addAll(UrlScheme.options());
    o.add(
        OptionSpec.optional(
            "start", "EPOCH_MS", "first timestamp, ms since 1970", "1767225600000"));
    o.add(OptionSpec.optional("span", "MS", "time covered by the whole log", "86400000"));
    o.add(OptionSpec.optional("direct-percent", "P", "percent of clicks without a referrer", "40"));
    return o;
  }

  @Override
  public RecordGenerator configure(long seed, ParsedOptions options) {
    long webSeed =
        options.string("web-seed").isEmpty()
            ? seed
            : options.longAtLeast("web-seed", Long.MIN_VALUE);
    long records = options.longAtLeast("records", 1);
    return new Generator(
        seed,
        records,
        new ZipfSampler(options.longAtLeast("users", 1), options.doubleIn("user-s", 0, 100, true)),
        new ZipfSampler(options.longAtLeast("pages", 1), options.doubleIn("page-s", 0, 100, true)),
        UrlScheme.from(webSeed, options),
        options.longAtLeast("start", 0),
        options.longAtLeast("span", 1),
        options.intIn("direct-percent", 0, 100),
        new ParetoSampler(1.5, 500, 3_600_000));
  }

  private record Generator(
      long seed,
      long records,
      ZipfSampler users,
      ZipfSampler pages,
      UrlScheme urls,
      long start,
      long span,
      int directPercent,
      ParetoSampler dwell)
      implements RecordGenerator {

    @Override
    public void write(long index, SplitMix64 rng, RecordBuffer out) {
      rng.reseed(seed, FIELDS_STREAM, index);
      // Slot bounds from one monotone function of the index keep the log sorted even under
      // rounding.
      long slotStart = slotStart(index);
      long ts = start + slotStart + (long) (rng.nextDouble() * (slotStart(index + 1) - slotStart));
      long user = users.sample(rng);
      long page = pages.sample(rng) - 1;
      long referrer = rng.nextInt(100) < directPercent ? -1 : pages.sample(rng) - 1;
      long dwellMs = (long) dwell.sample(rng);
      out.decimal(ts).tab().append('u').decimal(user).tab();
      // The url scheme reseeds the rng it is given, so hand it a scratch one after our own draws
      // are done.
      urls.appendUrl(page, rng, out);
      out.tab();
      if (referrer < 0) {
        out.append('-');
      } else {
        urls.appendUrl(referrer, rng, out);
      }
      out.tab().decimal(dwellMs).newline();
    }

    private long slotStart(long index) {
      return (long) (index * ((double) span / records));
    }

    @Override
    public List<String> columns() {
      return List.of("timestamp_ms", "user", "url", "referrer", "dwell_ms");
    }

    @Override
    public RecordGenerator copy() {
      return this;
    }
  }
}
