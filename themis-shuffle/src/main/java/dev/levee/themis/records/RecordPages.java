package dev.levee.themis.records;

import java.util.ArrayList;
import java.util.List;

/**
 * The byte arrays that hold framed records, and the 64-bit pointers that name one record in them:
 * the page index in the high 32 bits, the record's offset in the low 32. A record never straddles
 * two pages, so a pointer is all a comparator or an iterator needs.
 */
public final class RecordPages {
  private final List<byte[]> pages = new ArrayList<>();
  private long bytes;

  public static long pointer(int page, int offset) {
    return ((long) page << 32) | (offset & 0xFFFFFFFFL);
  }

  public static int pageOf(long pointer) {
    return (int) (pointer >>> 32);
  }

  public static int offsetOf(long pointer) {
    return (int) pointer;
  }

  /** Adds a page; returns its index. */
  public int add(byte[] page) {
    pages.add(page);
    bytes += page.length;
    return pages.size() - 1;
  }

  /** Replaces the last page (one that turned out to hold no record). */
  public void replaceLast(byte[] page) {
    byte[] old = pages.set(pages.size() - 1, page);
    bytes += page.length - old.length;
  }

  public void removeLast() {
    bytes -= pages.remove(pages.size() - 1).length;
  }

  public byte[] page(int index) {
    return pages.get(index);
  }

  public byte[] pageOfPointer(long pointer) {
    return pages.get(pageOf(pointer));
  }

  public int count() {
    return pages.size();
  }

  /** Heap bytes of all pages (their capacity, not only what is filled). */
  public long bytes() {
    return bytes;
  }

  public void clear() {
    pages.clear();
    bytes = 0;
  }
}
