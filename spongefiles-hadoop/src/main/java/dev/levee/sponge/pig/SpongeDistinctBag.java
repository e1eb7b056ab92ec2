package dev.levee.sponge.pig;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.apache.pig.data.Tuple;

/**
 * Pig's distinct bag spilling into SpongeFiles: nested DISTINCT in a FOREACH and the DISTINCT UDF
 * with {@code pig.cachedbag.distinct.type=default}. Memory is a hash set; each spill writes it
 * sorted, and iteration merges the spills with sorted memory, returning each tuple once. Memory
 * stays the same set object for the bag's life (Pig's own distinct bag swaps it for a list on the
 * first read, which changes the lock its memory manager takes).
 */
final class SpongeDistinctBag extends MergedRunsBag {
  private static final long serialVersionUID = 1L;

  /** Memory sorted, built on demand and dropped when memory changes. */
  private transient List<Tuple> sorted;

  SpongeDistinctBag(BagSettings settings) {
    super(new HashSet<>(), settings);
  }

  /** Takes ownership of {@code tuples}, which must already be distinct, as Pig's own bag does. */
  SpongeDistinctBag(Set<Tuple> tuples, BagSettings settings) {
    super(tuples, settings);
    mSize = tuples.size();
    markSpillableIfNecessary();
  }

  @Override
  String kind() {
    return "distinct";
  }

  @Override
  public boolean isSorted() {
    return false;
  }

  @Override
  public boolean isDistinct() {
    return true;
  }

  @Override
  public void add(Tuple t) {
    boolean isNew;
    synchronized (mContents) {
      isNew = mContents.add(t);
      if (isNew) {
        mSize++;
        sorted = null;
        memoryChanged();
      }
    }
    if (isNew) {
      added();
    }
  }

  /** Once spilled, a tuple may sit in several runs and memory: count what iteration returns. */
  @Override
  public long size() {
    synchronized (mContents) {
      if (runs.size() == 0) {
        return mSize;
      }
    }
    long n = 0;
    for (Iterator<Tuple> i = iterator(); i.hasNext(); i.next()) {
      n++;
    }
    synchronized (mContents) {
      mSize = n;
    }
    return n;
  }

  @Override
  Comparator<Tuple> order() {
    return NaturalOrder.INSTANCE;
  }

  @Override
  boolean dropsDuplicates() {
    return true;
  }

  @Override
  List<Tuple> sortedMemory() {
    if (sorted == null) {
      sorted = new ArrayList<>(mContents);
      sorted.sort(NaturalOrder.INSTANCE);
    }
    return sorted;
  }

  @Override
  void spilled() {
    sorted = null;
  }
}
