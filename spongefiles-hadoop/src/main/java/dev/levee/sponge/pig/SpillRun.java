package dev.levee.sponge.pig;

import java.io.DataInputStream;
import java.io.IOException;

/**
 * What one spill of a bag wrote: tuples in Pig's binary encoding, in the order the bag wrote them
 * (sorted for sorted and distinct bags). Read back any number of times, by several readers at once;
 * deleted when the bag is cleared or garbage collected.
 */
interface SpillRun {
  /**
   * Opens a new reader from the first tuple.
   *
   * @param prefetch whether chunks outside the local sponge are fetched one ahead (costs a second
   *     chunk buffer): worth it for one reader, not for a merge of many runs
   */
  DataInputStream open(boolean prefetch) throws IOException;

  /** Frees the run's space. Idempotent; never throws (a leftover is logged and reclaimed later). */
  void delete();

  /** The run's bytes, for logs. */
  long length();
}
