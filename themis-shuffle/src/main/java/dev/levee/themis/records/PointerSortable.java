package dev.levee.themis.records;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.util.IndexedSortable;

/**
 * A range of record pointers as Hadoop's {@link org.apache.hadoop.util.IndexedSorter} sees it:
 * compares the framed keys the pointers name with the job's raw comparator, and swaps pointers only
 * (the records never move).
 */
public final class PointerSortable implements IndexedSortable {
  private final LongList pointers;
  private final long base;
  private final RecordPages pages;
  private final RawComparator<?> comparator;

  /** Indexes {@code 0..n} of the sorter are {@code base..base+n} of {@code pointers}. */
  public PointerSortable(
      LongList pointers, long base, RecordPages pages, RawComparator<?> comparator) {
    this.pointers = pointers;
    this.base = base;
    this.pages = pages;
    this.comparator = comparator;
  }

  @Override
  public int compare(int i, int j) {
    return compareKeys(pages, comparator, pointers.get(base + i), pointers.get(base + j));
  }

  @Override
  public void swap(int i, int j) {
    pointers.swap(base + i, base + j);
  }

  public static int compareKeys(RecordPages pages, RawComparator<?> comparator, long p, long q) {
    byte[] a = pages.pageOfPointer(p);
    int ao = RecordPages.offsetOf(p);
    byte[] b = pages.pageOfPointer(q);
    int bo = RecordPages.offsetOf(q);
    return comparator.compare(
        a,
        FramedRecord.keyStart(a, ao),
        FramedRecord.keyLength(a, ao),
        b,
        FramedRecord.keyStart(b, bo),
        FramedRecord.keyLength(b, bo));
  }
}
