package dev.levee.bench.gen;

import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import java.util.List;

/** A named synthetic dataset: its own options, and a generator configured from them. */
public interface Dataset {

  String name();

  String summary();

  /** Options specific to this dataset, besides the common --out/--records/--seed/--files. */
  List<OptionSpec> options();

  /**
   * Validates the options (failing with {@link dev.levee.bench.cli.BadArgumentException} naming the
   * bad one) and returns a generator for them.
   */
  RecordGenerator configure(long seed, ParsedOptions options);
}
