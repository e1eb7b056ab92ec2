package dev.levee.sponge.pig;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.Iterator;
import org.apache.pig.PigCounters;
import org.apache.pig.PigWarning;
import org.apache.pig.data.DataType;
import org.apache.pig.data.DefaultAbstractBag;
import org.apache.pig.data.InterSedes;
import org.apache.pig.data.InterSedesFactory;
import org.apache.pig.data.Tuple;

/**
 * What the SpongeFile-spilling bags share: a spill writes every tuple in memory, in the order
 * {@link #tuplesToSpill()} gives, into one new run (a SpongeFile, or a local file on a node without
 * a sponge) and empties memory. Pig's memory manager calls {@link #spill()} from its own thread
 * while the task thread adds and iterates, so everything that touches the contents or the runs
 * holds the contents' lock, as in Pig's own bags. A bag also spills itself once its in-memory part
 * passes {@link BagSettings#memoryBudgetBytes()}.
 */
abstract class SpongeSpillBag extends DefaultAbstractBag {
  private static final long serialVersionUID = 1L;

  static final InterSedes SEDES = InterSedesFactory.getInterSedesInstance();

  /** Adds between two checks of the memory budget (the estimate samples tuples). */
  private static final int BUDGET_CHECK_INTERVAL = 128;

  final transient BagSettings settings;
  final transient SpillRuns runs;
  private transient int addsSinceCheck;

  SpongeSpillBag(Collection<Tuple> contents, BagSettings settings) {
    this.mContents = contents;
    this.settings = settings;
    this.runs = new SpillRuns(this);
  }

  /** What a spill file of this bag is called (for logs and the sponge's file labels). */
  abstract String kind();

  /**
   * The tuples a spill writes, in the order its readers expect; called with the lock held and
   * memory non-empty.
   */
  abstract Iterable<Tuple> tuplesToSpill();

  /** Called with the lock held after a spill emptied memory. */
  void spilled() {}

  /** To be called after every add, outside the lock. */
  final void added() {
    markSpillableIfNecessary();
    long budget = settings.memoryBudgetBytes();
    if (budget > 0 && ++addsSinceCheck >= BUDGET_CHECK_INTERVAL) {
      addsSinceCheck = 0;
      if (getMemorySize() > budget) {
        spill(true);
      }
    }
  }

  @Override
  public long spill() {
    return spill(false);
  }

  private long spill(boolean proactive) {
    long spilled;
    synchronized (mContents) {
      if (mContents.isEmpty()) {
        return 0;
      }
      Iterable<Tuple> tuples = tuplesToSpill();
      SpillRun run;
      try {
        run =
            settings.space().get().spill(kind(), false, out -> writeTuples(out, tuples.iterator()));
      } catch (IOException | RuntimeException e) {
        // As stock Pig: the tuples stay in memory and the task carries on.
        warn("Unable to spill contents", PigWarning.UNABLE_TO_SPILL, e);
        return 0;
      }
      runs.add(run);
      spilled = mContents.size();
      mContents.clear();
      spilled();
    }
    incSpillCount(
        proactive
            ? PigCounters.PROACTIVE_SPILL_COUNT_BAGS
            : PigCounters.SPILLABLE_MEMORY_MANAGER_SPILL_COUNT);
    return spilled;
  }

  /** Empties memory and deletes every spill. */
  @Override
  public void clear() {
    synchronized (mContents) {
      super.clear();
      runs.clear();
      spilled();
    }
  }

  /** Number of spills this bag holds now (for tests and logs). */
  int spillCount() {
    return runs.size();
  }

  // --- reading runs, shared by the iterators ---

  DataInputStream openRun(int index, boolean prefetch) {
    SpillRun run = runs.get(index);
    try {
      return run.open(prefetch);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read back bag spill " + run, e);
    }
  }

  /** The next tuple of {@code in}, or null at its end (then closed and counted). */
  Tuple readTuple(DataInputStream in) {
    try {
      return (Tuple) SEDES.readDatum(in);
    } catch (EOFException eof) {
      close(in);
      settings.space().get().readFinished();
      return null;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read back a bag spill", e);
    }
  }

  /**
   * Skips {@code n} tuples that were read from memory before memory was spilled into {@code in}.
   */
  void skip(DataInputStream in, int n) {
    for (int i = 0; i < n; i++) {
      if (readTuple(in) == null) {
        throw new IllegalStateException(
            "a " + kind() + " bag spill holds fewer tuples than were read from memory before it");
      }
    }
  }

  static void close(DataInputStream in) {
    try {
      in.close();
    } catch (IOException ignored) {
      // Read to the end already; nothing is lost.
    }
  }

  /** Writes every tuple of {@code tuples} to a spill, reporting progress; returns how many. */
  long writeTuples(DataOutputStream out, Iterator<Tuple> tuples) throws IOException {
    long n = 0;
    while (tuples.hasNext()) {
      SEDES.writeDatum(out, tuples.next(), DataType.TUPLE);
      if ((++n & 0x3fff) == 0) {
        reportProgress();
      }
    }
    return n;
  }

  /**
   * An iterator that reads one tuple ahead ({@link #fetch}, null at the end) and reports progress
   * every 1024 tuples, as Pig's own bag iterators do.
   */
  abstract class ReadAheadIterator implements Iterator<Tuple> {
    private Tuple buffered;
    private boolean hasBuffered;
    private int count;

    /** The next tuple, or null past the end. */
    abstract Tuple fetch();

    @Override
    public boolean hasNext() {
      if (!hasBuffered) {
        buffered = fetch();
        hasBuffered = true;
      }
      return buffered != null;
    }

    /** Null past the end, as Pig's own bag iterators: Pig's operators read until null. */
    @Override
    public Tuple next() {
      if (!hasNext()) {
        return null;
      }
      hasBuffered = false;
      Tuple t = buffered;
      buffered = null;
      if ((count++ & 0x3ff) == 0) {
        reportProgress();
      }
      return t;
    }
  }
}
