package dev.levee.themis.plan;

import dev.levee.themis.records.FramedRecord;
import dev.levee.themis.records.LongList;
import dev.levee.themis.records.PointerIterator;
import dev.levee.themis.records.PointerSorter;
import dev.levee.themis.records.RecordPages;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.QuickSort;

/**
 * One split prefix's map output held as a Themis map holds it (framed records in pages, a pointer
 * each), with the input position at which each record was emitted: sorted by the job's key
 * comparator it feeds the combiner, and its key groups can be counted over any leading part of the
 * input.
 */
final class BufferedRecords {
  private static final int PAGE = 1 << 20;

  private final RecordPages pages = new RecordPages();
  private final LongList pointers = new LongList();
  private final LongList positions = new LongList();
  private final PointerSorter sorter;
  private byte[] page;
  private int used;
  private long bytes;

  BufferedRecords(RawComparator<?> comparator) {
    sorter = new PointerSorter(new QuickSort(), comparator);
  }

  /**
   * Adds the record serialized in {@code serialized} (its key in the first {@code keyLength}
   * bytes), emitted once the mapper had read {@code position} input bytes.
   */
  void add(DataOutputBuffer serialized, int keyLength, long position) {
    int valueLength = serialized.getLength() - keyLength;
    int framed = FramedRecord.framedLength(keyLength, valueLength);
    if (page == null || used + framed > page.length) {
      page = new byte[Math.max(PAGE, framed)];
      pages.add(page);
      used = 0;
    }
    int at = used;
    int pos = FramedRecord.writeHeader(page, used, keyLength, valueLength);
    System.arraycopy(serialized.getData(), 0, page, pos, serialized.getLength());
    used = pos + serialized.getLength();
    pointers.add(RecordPages.pointer(pages.count() - 1, at));
    positions.add(position);
    bytes += framed;
  }

  int size() {
    return (int) pointers.size();
  }

  /** Framed bytes held. */
  long bytes() {
    return bytes;
  }

  void clear() {
    pages.clear();
    pointers.clear();
    positions.clear();
    page = null;
    used = 0;
    bytes = 0;
  }

  /** The records emitted once at most {@code position} input bytes had been read. */
  int emittedBy(long position) {
    int n = 0;
    while (n < positions.size() && positions.get(n) <= position) {
      n++;
    }
    return n;
  }

  /** Pointers to the first {@code n} records (in emission order), sorted by key. */
  LongList sorted(int n) {
    LongList order = LongList.ofSize(n);
    for (int i = 0; i < n; i++) {
      order.set(i, pointers.get(i));
    }
    sorter.sort(pages, order, 0, n, null, Long.MAX_VALUE);
    return order;
  }

  /** Distinct keys among {@code order} (sorted) as {@code grouping} tells them apart. */
  int groups(LongList order, RawComparator<?> grouping) {
    int groups = 0;
    for (long i = 0; i < order.size(); i++) {
      if (i == 0 || !sameKey(order.get(i - 1), order.get(i), grouping)) {
        groups++;
      }
    }
    return groups;
  }

  private boolean sameKey(long a, long b, RawComparator<?> grouping) {
    byte[] pa = pages.pageOfPointer(a);
    byte[] pb = pages.pageOfPointer(b);
    int oa = RecordPages.offsetOf(a);
    int ob = RecordPages.offsetOf(b);
    return grouping.compare(
            pa,
            FramedRecord.keyStart(pa, oa),
            FramedRecord.keyLength(pa, oa),
            pb,
            FramedRecord.keyStart(pb, ob),
            FramedRecord.keyLength(pb, ob))
        == 0;
  }

  /** The records {@code order} names, as a reduce-side input. */
  RawKeyValueIterator iterator(LongList order) {
    return new PointerIterator(order, 0, order.size(), pages);
  }
}
