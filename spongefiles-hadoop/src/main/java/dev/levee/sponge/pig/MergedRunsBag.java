package dev.levee.sponge.pig;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.pig.data.Tuple;

/**
 * A bag read in an order: each spill writes memory sorted, and an iterator merges the runs with
 * sorted memory ({@link SpongeSortedBag}; {@link SpongeDistinctBag} also drops duplicates). As in
 * Pig's own sorted and distinct bags, tuples added after an iterator was opened are seen only by
 * iterators opened later.
 *
 * <p>A merge keeps one reader per run open, each with a chunk buffer for chunks outside the local
 * sponge; past {@link #MERGE_FAN_IN} runs the oldest are merged into one run first (Pig merges at
 * 100 local files, whose readers cost 8 KiB each).
 */
abstract class MergedRunsBag extends SpongeSpillBag {
  private static final long serialVersionUID = 1L;

  /** Most runs one merge reads at once. */
  static final int MERGE_FAN_IN = 16;

  /** Runs read with a chunk fetched ahead; a bigger merge reads chunk by chunk. */
  private static final int PREFETCH_FAN_IN = 4;

  /** Bumped by every add, under the lock: an iterator's view of memory is stale once it moves. */
  private transient long memoryVersion;

  MergedRunsBag(Collection<Tuple> contents, BagSettings settings) {
    super(contents, settings);
  }

  /** Subclasses call it from add, with the lock held. */
  final void memoryChanged() {
    memoryVersion++;
  }

  /** The order of reads and of every run. */
  abstract Comparator<Tuple> order();

  /** Whether equal tuples are returned once. */
  abstract boolean dropsDuplicates();

  /** Memory in {@link #order()}, sorting it first if needed; called with the lock held. */
  abstract List<Tuple> sortedMemory();

  @Override
  Iterable<Tuple> tuplesToSpill() {
    return sortedMemory();
  }

  @Override
  public Iterator<Tuple> iterator() {
    synchronized (mContents) {
      mergeDownTo(MERGE_FAN_IN);
      return new MergeIterator();
    }
  }

  /** Merges the oldest runs until at most {@code fanIn} are left; lock held. */
  private void mergeDownTo(int fanIn) {
    while (runs.size() > fanIn) {
      SpillRun merged;
      try {
        // A fresh merge per attempt: the space retries a failed SpongeFile write into a local
        // file, and a merge can only be read once, so a shared one would resume half-way and the
        // tuples already read would be lost when the old runs are replaced.
        merged =
            settings
                .space()
                .get()
                .spill(
                    kind(),
                    true,
                    out -> {
                      MergeIterator merge = new MergeIterator(fanIn);
                      try {
                        return writeTuples(out, merge);
                      } finally {
                        merge.closeAll();
                      }
                    });
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(
            "cannot merge the spills of a " + kind() + " bag", e);
      }
      runs.replaceFirst(fanIn, merged);
    }
  }

  /** One input of a merge, with its next tuple. */
  private abstract static class Source {
    Tuple head;

    /** Moves to the next tuple; false (and head null) at the end. */
    abstract boolean advance();

    void close() {}
  }

  private final class RunSource extends Source {
    private DataInputStream in;

    RunSource(DataInputStream in) {
      this.in = in;
    }

    @Override
    boolean advance() {
      if (in == null) {
        head = null;
        return false;
      }
      head = readTuple(in);
      if (head == null) {
        in = null;
        return false;
      }
      return true;
    }

    @Override
    void close() {
      if (in != null) {
        SpongeSpillBag.close(in);
        in = null;
      }
    }
  }

  /**
   * Sorted memory, read by position under the lock. When memory is spilled under it (the run count
   * grows), it continues from that run, past the tuples it already returned: the run holds exactly
   * the memory it was reading, in the same order.
   */
  private final class MemorySource extends Source {
    private final int runsWhenOpened;
    private final long versionWhenOpened;
    private int ptr;
    private RunSource spilled;

    MemorySource(int runsWhenOpened, long versionWhenOpened) {
      this.runsWhenOpened = runsWhenOpened;
      this.versionWhenOpened = versionWhenOpened;
    }

    @Override
    boolean advance() {
      if (spilled == null) {
        synchronized (mContents) {
          if (memoryVersion != versionWhenOpened) {
            // Tuples were added since this iterator opened: they are for later iterators.
            head = null;
            return false;
          }
          if (runs.size() == runsWhenOpened) {
            List<Tuple> memory = sortedMemory();
            head = ptr < memory.size() ? memory.get(ptr++) : null;
            return head != null;
          }
        }
        DataInputStream in = openRun(runsWhenOpened, false);
        skip(in, ptr);
        spilled = new RunSource(in);
      }
      boolean more = spilled.advance();
      head = spilled.head;
      return more;
    }

    @Override
    void close() {
      if (spilled != null) {
        spilled.close();
      }
    }
  }

  private final class MergeIterator extends ReadAheadIterator {
    private final PriorityQueue<Source> queue;
    private final List<Source> sources = new ArrayList<>();
    private final Comparator<Tuple> order = order();
    private final boolean distinct = dropsDuplicates();
    private Tuple last;

    /** Every run and memory; lock held. */
    MergeIterator() {
      this(-1);
    }

    /** The oldest {@code fanIn} runs only, or everything when negative; lock held. */
    MergeIterator(int fanIn) {
      queue =
          new PriorityQueue<>(
              Math.max(1, runs.size() + 1), (a, b) -> order.compare(a.head, b.head));
      int n = fanIn < 0 ? runs.size() : fanIn;
      boolean prefetch = n <= PREFETCH_FAN_IN;
      try {
        for (int i = 0; i < n; i++) {
          sources.add(new RunSource(openRun(i, prefetch)));
        }
        if (fanIn < 0) {
          sortedMemory();
          sources.add(new MemorySource(runs.size(), memoryVersion));
        }
      } catch (RuntimeException e) {
        closeAll();
        throw e;
      }
      for (Source s : sources) {
        if (s.advance()) {
          queue.add(s);
        }
      }
    }

    @Override
    Tuple fetch() {
      while (true) {
        Source s = queue.poll();
        if (s == null) {
          return null;
        }
        Tuple t = s.head;
        if (s.advance()) {
          queue.add(s);
        }
        if (distinct && last != null && order.compare(last, t) == 0) {
          continue;
        }
        last = t;
        return t;
      }
    }

    void closeAll() {
      for (Source s : sources) {
        s.close();
      }
    }
  }
}
