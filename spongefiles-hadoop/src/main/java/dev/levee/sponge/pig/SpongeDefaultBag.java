package dev.levee.sponge.pig;

import java.io.DataInputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.pig.data.Tuple;

/**
 * Pig's default bag (unordered, duplicates kept) spilling into SpongeFiles: what GROUP, COGROUP and
 * JOIN hand a UDF when {@code pig.cachedbag.type=default}, and what UDFs build through the factory.
 * Iteration returns the runs in the order they were spilled, then memory: insertion order, as Pig's
 * own default bag.
 */
final class SpongeDefaultBag extends SpongeSpillBag {
  private static final long serialVersionUID = 1L;

  SpongeDefaultBag(BagSettings settings) {
    super(new ArrayList<>(), settings);
  }

  /** Takes ownership of {@code tuples} without copying it, as Pig's own default bag does. */
  SpongeDefaultBag(List<Tuple> tuples, BagSettings settings) {
    super(tuples, settings);
    mSize = tuples.size();
    markSpillableIfNecessary();
  }

  @Override
  String kind() {
    return "default";
  }

  @Override
  public boolean isSorted() {
    return false;
  }

  @Override
  public boolean isDistinct() {
    return false;
  }

  @Override
  public void add(Tuple t) {
    synchronized (mContents) {
      mSize++;
      mContents.add(t);
    }
    added();
  }

  @Override
  Iterable<Tuple> tuplesToSpill() {
    return mContents;
  }

  @Override
  public Iterator<Tuple> iterator() {
    return new InsertionOrderIterator();
  }

  /**
   * Reads the runs in order, then memory. Adds during iteration are seen. If memory is spilled
   * while this iterator is reading it, the spill is the next run it has not read (runs are only
   * ever appended); it opens that run and skips what it already returned from memory. Unlike Pig's
   * own iterator it notices the spill by the number of runs, not by memory being empty, so tuples
   * added and spilled again in between cannot be skipped.
   */
  private final class InsertionOrderIterator extends ReadAheadIterator {
    private int memoryPtr;
    private int runPtr;
    private DataInputStream in;

    @Override
    Tuple fetch() {
      while (true) {
        if (in != null) {
          Tuple t = readTuple(in);
          if (t != null) {
            return t;
          }
          in = null;
        }
        synchronized (mContents) {
          if (runPtr >= runs.size()) {
            // Everything spilled has been read: memory is next.
            return memoryPtr < mContents.size() ? ((List<Tuple>) mContents).get(memoryPtr++) : null;
          }
        }
        in = openRun(runPtr++, true);
        if (memoryPtr > 0) {
          // This run is the memory we were part-way through when it was spilled.
          skip(in, memoryPtr);
          memoryPtr = 0;
        }
      }
    }
  }
}
