package dev.levee.themis.records;

import dev.levee.mapred.BufferedRawIterator;

/**
 * The records a range of pointers names, in pointer order, as the raw iterator a reducer or a
 * combiner consumes. Keys and values are served in place from their pages.
 */
public final class PointerIterator extends BufferedRawIterator {
  private final LongList pointers;
  private final long from;
  private final long to;
  private final RecordPages pages;
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
}
