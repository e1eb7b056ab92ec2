package dev.levee.bench.gen;

import java.util.List;

/**
 * Formats record number {@code index} of a configured dataset. Implementations must make the record
 * a pure function of the dataset's options and the index (draw randomness only from {@code rng}
 * after reseeding it for this index), which is what makes output independent of how records are
 * split over files and threads.
 *
 * <p>Not thread-safe: the writer gives each thread its own instance via {@link #copy()}.
 */
public interface RecordGenerator {

  /** Appends record {@code index}, including its trailing newline, to {@code out}. */
  void write(long index, SplitMix64 rng, RecordBuffer out);

  /** Names of the tab-separated columns, in order, for the dataset manifest. */
  List<String> columns();

  /** An independent instance with the same configuration. */
  RecordGenerator copy();
}
