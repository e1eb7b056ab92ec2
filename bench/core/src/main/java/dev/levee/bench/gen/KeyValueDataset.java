package dev.levee.bench.gen;

import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * Key/value lines {@code key TAB value}: keys from a key space of n, Zipf-skewed or uniform; values
 * of fixed or Pareto-distributed length. Three presets are registered: {@code zipf} (skewed keys),
 * {@code uniform} and {@code pareto} (uniform keys, heavy-tailed record sizes).
 *
 * <p>Keys are "k" plus the rank zero-padded to the width of n, so text order equals rank order and
 * the hottest key is k...001 (rank 1).
 */
public final class KeyValueDataset implements Dataset {
  private static final long KEY_STREAM = 1;
  private static final long VALUE_STREAM = 2;

  private final String name;
  private final boolean zipfKeys;
  private final String defaultValueSize;

  private KeyValueDataset(String name, boolean zipfKeys, String defaultValueSize) {
    this.name = name;
    this.zipfKeys = zipfKeys;
    this.defaultValueSize = defaultValueSize;
  }

  public static KeyValueDataset zipf() {
    return new KeyValueDataset("zipf", true, "fixed:90");
  }

  public static KeyValueDataset uniform() {
    return new KeyValueDataset("uniform", false, "fixed:90");
  }

  public static KeyValueDataset pareto() {
    return new KeyValueDataset("pareto", false, "pareto:1.5,10,1000000");
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String summary() {
    return switch (name) {
      case "zipf" -> "key<TAB>value, keys Zipf(s) over a key space of n";
      case "uniform" -> "key<TAB>value, keys uniform over a key space of n";
      default -> "key<TAB>value, uniform keys, Pareto(alpha, x0, max) value lengths";
    };
  }

  @Override
  public List<OptionSpec> options() {
    List<OptionSpec> o = new ArrayList<>();
    o.add(OptionSpec.optional("keys", "N", "size of the key space", "1000000"));
    if (zipfKeys) {
      o.add(
          OptionSpec.optional(
              "s", "S", "Zipf exponent (> 0; 1 is classic Zipf, larger is more skewed)", "1.0"));
    }
    o.add(
        OptionSpec.optional(
            "value-size",
            "SPEC",
            "value length: fixed:BYTES or pareto:ALPHA,X0,MAX",
            defaultValueSize));
    return o;
  }

  @Override
  public RecordGenerator configure(long seed, ParsedOptions options) {
    long keys = options.longAtLeast("keys", 1);
    ValueSize valueSize = ValueSize.parse("value-size", options.string("value-size"));
    ZipfSampler zipf = zipfKeys ? new ZipfSampler(keys, options.doubleIn("s", 0, 100, true)) : null;
    return new Generator(seed, keys, zipf, valueSize);
  }

  private static final class Generator implements RecordGenerator {
    private final long seed;
    private final long keys;
    private final ZipfSampler zipf;
    private final ValueSize valueSize;
    private final int keyWidth;
    private final SplitMix64 valueRng = new SplitMix64(0);

    Generator(long seed, long keys, ZipfSampler zipf, ValueSize valueSize) {
      this.seed = seed;
      this.keys = keys;
      this.zipf = zipf;
      this.valueSize = valueSize;
      this.keyWidth = RecordBuffer.digits(keys);
    }

    @Override
    public void write(long index, SplitMix64 rng, RecordBuffer out) {
      rng.reseed(seed, KEY_STREAM, index);
      long rank = zipf != null ? zipf.sample(rng) : 1 + rng.nextLong(keys);
      out.append('k').zeroPadded(rank, keyWidth).tab();
      // Values draw from their own stream so changing the key law leaves value bytes alone, and
      // vice versa.
      valueRng.reseed(seed, VALUE_STREAM, index);
      out.randomText(valueRng, valueSize.next(valueRng)).newline();
    }

    @Override
    public List<String> columns() {
      return List.of("key", "value");
    }

    @Override
    public RecordGenerator copy() {
      return new Generator(seed, keys, zipf, valueSize);
    }
  }
}
