package dev.levee.themis.records;

import java.util.Arrays;

/**
 * A growable list of longs kept in fixed-size chunks: growing never copies what is already stored
 * and never asks the heap for one huge array, which matters when a task holds hundreds of millions
 * of record pointers beside the records themselves.
 */
public final class LongList {
  static final int CHUNK_SHIFT = 16;
  static final int CHUNK = 1 << CHUNK_SHIFT;
  private static final int MASK = CHUNK - 1;

  private long[][] chunks = new long[4][];
  private long size;

  public long size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public void add(long value) {
    int c = (int) (size >>> CHUNK_SHIFT);
    if (c == chunks.length) {
      chunks = Arrays.copyOf(chunks, c * 2);
    }
    if (chunks[c] == null) {
      chunks[c] = new long[CHUNK];
    }
    chunks[c][(int) (size & MASK)] = value;
    size++;
  }

  public long get(long index) {
    return chunks[(int) (index >>> CHUNK_SHIFT)][(int) (index & MASK)];
  }

  public void set(long index, long value) {
    chunks[(int) (index >>> CHUNK_SHIFT)][(int) (index & MASK)] = value;
  }

  public void swap(long i, long j) {
    long[] ci = chunks[(int) (i >>> CHUNK_SHIFT)];
    long[] cj = chunks[(int) (j >>> CHUNK_SHIFT)];
    int oi = (int) (i & MASK);
    int oj = (int) (j & MASK);
    long t = ci[oi];
    ci[oi] = cj[oj];
    cj[oj] = t;
  }

  /** A list of {@code size} zeros, allocated at once (for a permutation filled by index). */
  public static LongList ofSize(long size) {
    LongList list = new LongList();
    int chunks = (int) ((size + CHUNK - 1) >>> CHUNK_SHIFT);
    list.chunks = new long[Math.max(4, chunks)][];
    for (int c = 0; c < chunks; c++) {
      list.chunks[c] = new long[CHUNK];
    }
    list.size = size;
    return list;
  }

  /** Heap bytes the stored values take, whole chunks counted. */
  public long memoryBytes() {
    return ((size + CHUNK - 1) >>> CHUNK_SHIFT) * (long) CHUNK * Long.BYTES;
  }

  /** What one more stored value costs on average. */
  public static int bytesPerValue() {
    return Long.BYTES;
  }

  public void clear() {
    chunks = new long[4][];
    size = 0;
  }
}
