package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.results.Measurement;
import java.util.ArrayList;
import java.util.List;

/**
 * The ways each job runs: stock Hadoop and Pig with their defaults (the paper's baseline), stock as
 * an operator tunes it first for a reducer that spills (what a Hadoop expert compares against),
 * SpongeFiles, and stock with the NodeManagers' local dirs on a tmpfs as large as the sponge (what
 * "spill to RAM" alone gives). The order they run in rotates between repetitions.
 */
enum Variant {
  STOCK(Measurement.STOCK),
  STOCK_TUNED("stock-tuned"),
  SPONGEFILES("spongefiles"),
  STOCK_TMPFS("stock-tmpfs");

  final String label;

  Variant(String label) {
    this.label = label;
  }

  /** Whether the job runs Hadoop's own shuffle (its merge passes are read from its log). */
  boolean stockShuffle() {
    return this != SPONGEFILES;
  }

  /** Whether the variant runs on the cluster whose local dirs are tmpfs mounts. */
  boolean onTmpfs() {
    return this == STOCK_TMPFS;
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
