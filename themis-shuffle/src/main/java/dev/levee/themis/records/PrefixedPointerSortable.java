package dev.levee.themis.records;

import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.util.IndexedSortable;

/**
 * {@link PointerSortable} with each record's {@link KeyPrefix} in a list beside its pointer: a
 * comparison reads the two prefixes and reaches into the record pages only when they are equal; a
 * swap moves both.
 */
final class PrefixedPointerSortable implements IndexedSortable {
  private final LongList pointers;
  private final long base;
  private final LongList prefixes;
  private final RecordPages pages;
  private final RawComparator<?> comparator;
  private final boolean decisive;

  /** {@code prefixes} index {@code i} belongs to {@code pointers} index {@code base + i}. */
  PrefixedPointerSortable(
      LongList pointers,
      long base,
      LongList prefixes,
      RecordPages pages,
      RawComparator<?> comparator,
      boolean decisive) {
    this.pointers = pointers;
    this.base = base;
    this.prefixes = prefixes;
    this.pages = pages;
    this.comparator = comparator;
    this.decisive = decisive;
  }

  @Override
  public int compare(int i, int j) {
    int c = Long.compareUnsigned(prefixes.get(i), prefixes.get(j));
    if (c != 0 || decisive) {
      return c;
    }
    return PointerSortable.compareKeys(
        pages, comparator, pointers.get(base + i), pointers.get(base + j));
  }

  @Override
  public void swap(int i, int j) {
    prefixes.swap(i, j);
    pointers.swap(base + i, base + j);
  }
}
