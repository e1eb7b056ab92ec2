package dev.levee.piranha.exchange;

import dev.levee.mapred.BufferedRawIterator;
import dev.levee.mapred.IOFailures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;

/**
 * The records of several runs as one {@link RawKeyValueIterator}, what a stock {@code Reducer}
 * reads through {@code ReduceContextImpl}: a k-way merge by the stage's sort comparator when the
 * runs are sorted, or the runs one after another when they are not. Among equal keys, runs given
 * first come first, so the merge is deterministic.
 */
public final class RunMerger extends BufferedRawIterator implements java.io.Closeable {
  private final PriorityQueue<Entry> heap;
  private final List<Entry> sequence;
  private final List<RecordCursor> cursors = new ArrayList<>();
  private final long total;
  private long done;
  private Entry current;
  private int nextInSequence;

  private record Entry(RecordCursor cursor, int order) {}

  private RunMerger(List<Run> runs, RawComparator<?> comparator) throws IOException {
    long t = 0;
    for (Run r : runs) {
      t += r.records();
    }
    total = t;
    if (comparator != null) {
      heap =
          new PriorityQueue<>(
              Math.max(1, runs.size()),
              (a, b) -> {
                int c =
                    comparator.compare(
                        a.cursor.keyBytes(),
                        a.cursor.keyOffset(),
                        a.cursor.keyLength(),
                        b.cursor.keyBytes(),
                        b.cursor.keyOffset(),
                        b.cursor.keyLength());
                return c != 0 ? c : Integer.compare(a.order, b.order);
              });
      sequence = null;
    } else {
      heap = null;
      sequence = new ArrayList<>();
    }
    int order = 0;
    for (Run r : runs) {
      RecordCursor c = r.cursor();
      cursors.add(c);
      Entry e = new Entry(c, order++);
      if (heap != null) {
        if (advance(e)) {
          heap.add(e);
        }
      } else {
        sequence.add(e);
      }
    }
  }

  /** A merge of sorted runs by {@code comparator}. */
  public static RunMerger sorted(List<Run> runs, RawComparator<?> comparator) throws IOException {
    for (Run r : runs) {
      if (!r.sorted()) {
        throw new IllegalArgumentException("cannot merge an unsorted run by key: " + r);
      }
    }
    return new RunMerger(runs, comparator);
  }

  /** The runs' records one run after another. */
  public static RunMerger concatenated(List<Run> runs) throws IOException {
    return new RunMerger(runs, null);
  }

  private static boolean advance(Entry e) throws IOException {
    if (!e.cursor.next()) {
      return false;
    }
    if (e.cursor.nullKey()) {
      throw new IOException(
          "a null key arrived on a sorted edge; only a forward edge carries null keys");
    }
    return true;
  }

  @Override
  public boolean next() throws IOException {
    if (heap != null) {
      if (current != null && advance(current)) {
        heap.add(current);
      }
      current = heap.poll();
    } else {
      while (nextInSequence < sequence.size()) {
        Entry e = sequence.get(nextInSequence);
        if (e.cursor.next()) {
          current = e;
          break;
        }
        nextInSequence++;
        current = null;
      }
      if (nextInSequence >= sequence.size()) {
        current = null;
      }
    }
    if (current == null) {
      return false;
    }
    current.cursor.key(key);
    current.cursor.value(value);
    done++;
    if (total > 0) {
      progress.set((float) done / total);
    }
    return true;
  }

  /** Whether the current record has a null key (forward edges only). */
  public boolean nullKey() {
    return current.cursor.nullKey();
  }

  @Override
  public void close() throws IOException {
    IOFailures.closeAll(cursors);
  }

  /** Records returned so far. */
  public long records() {
    return done;
  }
}
