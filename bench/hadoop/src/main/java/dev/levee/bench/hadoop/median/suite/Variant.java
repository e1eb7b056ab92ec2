package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.results.Measurement;
import java.util.List;

/** Stock Hadoop or SpongeFiles; the order they run in alternates between repetitions. */
enum Variant {
  STOCK(Measurement.STOCK),
  SPONGEFILES("spongefiles");

  final String label;

  Variant(String label) {
    this.label = label;
  }

  /**
   * Stock first in even repetitions, SpongeFiles first in odd ones: neither always meets a colder
   * machine.
   */
  static List<Variant> order(int repetition) {
    return repetition % 2 == 0 ? List.of(STOCK, SPONGEFILES) : List.of(SPONGEFILES, STOCK);
  }
}
