package dev.levee.themis.records;

import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * The records a range of pointers names, in pointer order, as the raw iterator a reducer or a
 * combiner consumes. Keys and values are served in place from their pages.
 */
public final class PointerIterator implements RawKeyValueIterator {
  private final LongList pointers;
  private final long from;
  private final long to;
  private final RecordPages pages;
  private final DataInputBuffer key = new DataInputBuffer();
  private final DataInputBuffer value = new DataInputBuffer();
  private final Progress progress = new Progress();
  private long current;

  public PointerIterator(LongList pointers, long from, long to, RecordPages pages) {
    this.pointers = pointers;
    this.from = from;
    this.to = to;
    this.pages = pages;
    this.current = from - 1;
  }

  @Override
  public boolean next() {
    if (++current >= to) {
      progress.complete();
      return false;
    }
    long p = pointers.get(current);
    byte[] page = pages.pageOfPointer(p);
    int off = RecordPages.offsetOf(p);
    int ks = FramedRecord.keyStart(page, off);
    int kl = FramedRecord.keyLength(page, off);
    key.reset(page, ks, kl);
    value.reset(page, ks + kl, FramedRecord.valueLength(page, off));
    if (((current - from) & 0xFFFF) == 0) {
      progress.set((float) (current - from) / Math.max(1, to - from));
    }
    return true;
  }

  @Override
  public DataInputBuffer getKey() {
    return key;
  }

  @Override
  public DataInputBuffer getValue() {
    return value;
  }

  @Override
  public Progress getProgress() {
    return progress;
  }

  @Override
  public void close() {}
}
