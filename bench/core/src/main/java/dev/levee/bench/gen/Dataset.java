package dev.levee.bench.gen;

/**
 * A named synthetic dataset: its own options, and a generator configured from them.
 *
 * @param <O> its options: an object with picocli {@code @Option} fields
 */
public interface Dataset<O> {

  String name();

  String summary();

  /**
   * A new object holding this dataset's own options with their defaults, besides the common
   * --out/--records/--seed/--files.
   */
  O newOptions();

  /**
   * A generator for options already parsed and checked ({@link
   * dev.levee.bench.cli.OptionsCommand}).
   */
  RecordGenerator configure(long seed, O options);
}
