package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The ways the Median job runs: stock Hadoop with its defaults (the paper's baseline), stock as an
 * operator tunes it first for a reducer that spills (what a Hadoop expert compares against), and
 * SpongeFiles. The order they run in rotates between repetitions.
 */
enum Variant {
  STOCK(Measurement.STOCK),
  STOCK_TUNED("stock-tuned"),
  SPONGEFILES("spongefiles");

  final String label;

  Variant(String label) {
    this.label = label;
  }

  /** Whether the job runs Hadoop's own shuffle (its merge passes are read from its log). */
  boolean stockShuffle() {
    return this != SPONGEFILES;
  }

  static Variant ofLabel(String label) {
    for (Variant v : values()) {
      if (v.label.equals(label.trim().toLowerCase(Locale.ROOT))) {
        return v;
      }
    }
    throw new IllegalArgumentException(label);
  }

  static List<String> labels() {
    return java.util.Arrays.stream(values()).map(v -> v.label).toList();
  }

  /**
   * {@code chosen} rotated by the repetition: each variant goes first in turn, so none always meets
   * a colder (or warmer) machine.
   */
  static List<Variant> order(List<Variant> chosen, int repetition) {
    List<Variant> out = new ArrayList<>(chosen.size());
    for (int i = 0; i < chosen.size(); i++) {
      out.add(chosen.get((i + repetition) % chosen.size()));
    }
    return out;
  }
}
