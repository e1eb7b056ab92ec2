package dev.levee.themis.records;

import java.util.Arrays;

/** {@link LongList} for ints: the partition of each collected record. */
public final class IntList {
  private static final int SHIFT = LongList.CHUNK_SHIFT;
  private static final int CHUNK = 1 << SHIFT;
  private static final int MASK = CHUNK - 1;

  private int[][] chunks = new int[4][];
  private long size;

  public long size() {
    return size;
  }

  public void add(int value) {
    int c = (int) (size >>> SHIFT);
    if (c == chunks.length) {
      chunks = Arrays.copyOf(chunks, c * 2);
    }
    if (chunks[c] == null) {
      chunks[c] = new int[CHUNK];
    }
    chunks[c][(int) (size & MASK)] = value;
    size++;
  }

  public int get(long index) {
    return chunks[(int) (index >>> SHIFT)][(int) (index & MASK)];
  }

  public void clear() {
    chunks = new int[4][];
    size = 0;
  }
}
