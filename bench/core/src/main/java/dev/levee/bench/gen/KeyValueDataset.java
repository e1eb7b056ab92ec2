package dev.levee.bench.gen;

import dev.levee.bench.cli.Range;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * Key/value lines {@code key TAB value}: keys from a key space of n, Zipf-skewed or uniform; values
 * of fixed or Pareto-distributed length. Three presets are registered: {@code zipf} (skewed keys),
 * {@code uniform} and {@code pareto} (uniform keys, heavy-tailed record sizes).
 *
 * <p>Keys are "k" plus the rank zero-padded to the width of n, so text order equals rank order and
 * the hottest key is k...001 (rank 1).
 */
public final class KeyValueDataset implements Dataset<KeyValueDataset.Options> {
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

  /** The options of the uniform and Pareto presets. */
  public static class Options {
    @Option(names = "--keys", paramLabel = "N", description = "size of the key space")
    @Range(min = 1)
    long keys = 1_000_000;

    @Option(
        names = "--value-size",
        paramLabel = "SPEC",
        description = "value length: fixed:BYTES or pareto:ALPHA,X0,MAX")
    String valueSize;

    Options(String valueSize) {
      this.valueSize = valueSize;
    }
  }

  /** The Zipf preset's: its keys' exponent besides. */
  public static final class ZipfOptions extends Options {
    @Option(
        names = "--s",
        paramLabel = "S",
        description = "Zipf exponent (1 is classic Zipf, larger is more skewed)")
    @Range(min = 0, max = 100, exclusiveMin = true)
    double s = 1.0;

    ZipfOptions(String valueSize) {
      super(valueSize);
    }
  }

  @Override
  public Options newOptions() {
    return zipfKeys ? new ZipfOptions(defaultValueSize) : new Options(defaultValueSize);
  }

  @Override
  public RecordGenerator configure(long seed, Options o) {
    ValueSize valueSize = ValueSize.parse("value-size", o.valueSize);
    ZipfSampler zipf = o instanceof ZipfOptions z ? new ZipfSampler(o.keys, z.s) : null;
    return new Generator(seed, o.keys, zipf, valueSize);
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
