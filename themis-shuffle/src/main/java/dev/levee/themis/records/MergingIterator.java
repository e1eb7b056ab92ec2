package dev.levee.themis.records;

import dev.levee.mapred.IOFailures;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * One k-way merge of sorted cursors in a single pass, all of them open at once: this is how an
 * overflowing task reads its runs back, so that overflow costs exactly one extra write and one
 * extra read of the bytes that overflowed. Equal keys come out in cursor order, which makes the
 * result deterministic.
 */
public final class MergingIterator implements RawKeyValueIterator {
  private final PriorityQueue<Slot> heap;
  private final List<RecordCursor> cursors;
  private final long totalRecords;
  private final Progress progress = new Progress();
  private Slot current;
  private boolean started;
  private long returned;

  private record Slot(RecordCursor cursor, int order) {}

  /**
   * @param totalRecords records across all cursors, for progress only (0 if unknown)
   */
  public MergingIterator(
      List<RecordCursor> cursors, RawComparator<?> comparator, long totalRecords) {
    this.cursors = new ArrayList<>(cursors);
    this.totalRecords = totalRecords;
    this.heap =
        new PriorityQueue<>(
            Math.max(1, cursors.size()),
            (a, b) -> {
              DataInputBuffer ka = a.cursor().key();
              DataInputBuffer kb = b.cursor().key();
              int c =
                  comparator.compare(
                      ka.getData(),
                      ka.getPosition(),
                      ka.getLength() - ka.getPosition(),
                      kb.getData(),
                      kb.getPosition(),
                      kb.getLength() - kb.getPosition());
              return c != 0 ? c : Integer.compare(a.order(), b.order());
            });
  }

  @Override
  public boolean next() throws IOException {
    if (!started) {
      started = true;
      for (int i = 0; i < cursors.size(); i++) {
        RecordCursor c = cursors.get(i);
        if (c.next()) {
          heap.add(new Slot(c, i));
        }
      }
    } else if (current != null && current.cursor().next()) {
      heap.add(current);
    }
    current = heap.poll();
    if (current == null) {
      progress.complete();
      return false;
    }
    returned++;
    if (totalRecords > 0 && (returned & 0xFFFF) == 0) {
      progress.set(Math.min(1f, (float) returned / totalRecords));
    }
    return true;
  }

  @Override
  public DataInputBuffer getKey() {
    return current.cursor().key();
  }

  @Override
  public DataInputBuffer getValue() {
    return current.cursor().value();
  }

  @Override
  public Progress getProgress() {
    return progress;
  }

  @Override
  public void close() throws IOException {
    IOFailures.closeAll(cursors);
  }
}
