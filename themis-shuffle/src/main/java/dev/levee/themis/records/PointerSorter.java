package dev.levee.themis.records;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.util.IndexedSorter;
import org.apache.hadoop.util.Progressable;

/**
 * Sorts a range of record pointers by the keys they name: with a {@link KeyPrefix} beside each
 * pointer when the comparator's order is known and the heap has room, otherwise with the comparator
 * alone. Either way the order is the comparator's; the prefixes live only for the sort.
 */
public final class PointerSorter {
  private final IndexedSorter sorter;
  private final RawComparator<?> comparator;
  private final KeyPrefix prefix;

  public PointerSorter(IndexedSorter sorter, RawComparator<?> comparator) {
    this(sorter, comparator, KeyPrefix.forComparator(comparator));
  }

  /** With {@code prefix} given (null: none), for tests that compare both ways. */
  PointerSorter(IndexedSorter sorter, RawComparator<?> comparator, KeyPrefix prefix) {
    this.sorter = sorter;
    this.comparator = comparator;
    this.prefix = prefix;
  }

  /**
   * Sorts {@code pointers[base, base + n)}, with key prefixes when the comparator allows them and
   * they fit in {@code room} heap bytes (eight per record, held only during the sort). Returns
   * whether it used them.
   *
   * <p>Why room and not a charge in the budget: a task's budget already counts every record's bytes
   * and pointer, and its phase-0 plan is made from that count; the prefixes are a transient
   * speed-up, taken from what the budget leaves free, never a reason to spill or to plan more
   * reducers. A task filled to its budget sorts as before, with the comparator alone.
   */
  public boolean sort(
      RecordPages pages, LongList pointers, long base, int n, Progressable progress, long room) {
    if (n < 2) {
      return false;
    }
    if (prefix == null || (long) n * LongList.bytesPerValue() > room) {
      sorter.sort(new PointerSortable(pointers, base, pages, comparator), 0, n, progress);
      return false;
    }
    LongList prefixes = LongList.ofSize(n);
    for (int i = 0; i < n; i++) {
      long p = pointers.get(base + i);
      byte[] page = pages.pageOfPointer(p);
      int off = RecordPages.offsetOf(p);
      prefixes.set(
          i, prefix.of(page, FramedRecord.keyStart(page, off), FramedRecord.keyLength(page, off)));
    }
    sorter.sort(
        new PrefixedPointerSortable(pointers, base, prefixes, pages, comparator, prefix.decisive()),
        0,
        n,
        progress);
    return true;
  }
}
