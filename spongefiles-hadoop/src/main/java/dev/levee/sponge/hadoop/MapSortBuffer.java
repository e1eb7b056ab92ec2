package dev.levee.sponge.hadoop;

import dev.levee.mapred.BufferedRawIterator;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.IndexedSortable;

/**
 * A map's serialized output records in one array of {@code mapreduce.task.io.sort.mb} bytes, laid
 * out as stock's buffer is: record bytes grow from the start, {@value #META_BYTES} bytes of
 * metadata per record (partition, key start, key length, value length) grow down from the end, so a
 * map holds exactly as much as stock's before it spills. Sorting reorders the metadata only: by
 * partition, then by the job's raw key comparator.
 */
final class MapSortBuffer implements IndexedSortable {
  static final int META_BYTES = 16;
  private static final int META_INTS = META_BYTES / Integer.BYTES;
  private static final int PARTITION = 0;
  private static final int KEY_START = 1;
  private static final int KEY_LENGTH = 2;
  private static final int VALUE_LENGTH = 3;

  private final byte[] bytes;
  private final IntBuffer meta;
  private final RawComparator<?> comparator;
  private int dataEnd;
  private int records;

  /**
   * @param capacity bytes, a multiple of {@value #META_BYTES}
   */
  MapSortBuffer(int capacity, RawComparator<?> comparator) {
    if (capacity <= 0 || capacity % META_BYTES != 0) {
      throw new IllegalArgumentException(
          "sort buffer of " + capacity + " bytes: must be a positive multiple of " + META_BYTES);
    }
    this.bytes = new byte[capacity];
    // Native order, as stock's kvmeta: the metadata never leaves this process, and the sort's
    // compares and swaps then need no byte swaps.
    this.meta = ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder()).asIntBuffer();
    this.comparator = comparator;
  }

  int capacity() {
    return bytes.length;
  }

  /**
   * Appends a record whose key is {@code from[0, keyLength)} and value the {@code valueLength}
   * bytes after it; false, with nothing changed, when it does not fit.
   */
  boolean add(int partition, byte[] from, int keyLength, int valueLength) {
    long length = (long) keyLength + valueLength;
    if (dataEnd + length + (long) (records + 1) * META_BYTES > bytes.length) {
      return false;
    }
    System.arraycopy(from, 0, bytes, dataEnd, (int) length);
    int m = metaIndex(records);
    meta.put(m + PARTITION, partition);
    meta.put(m + KEY_START, dataEnd);
    meta.put(m + KEY_LENGTH, keyLength);
    meta.put(m + VALUE_LENGTH, valueLength);
    dataEnd += (int) length;
    records++;
    return true;
  }

  int records() {
    return records;
  }

  boolean isEmpty() {
    return records == 0;
  }

  /** Serialized key and value bytes held (without metadata). */
  long dataBytes() {
    return dataEnd;
  }

  void clear() {
    dataEnd = 0;
    records = 0;
  }

  int partition(int record) {
    return meta.get(metaIndex(record) + PARTITION);
  }

  /**
   * After {@link #sort}: the first record at or after {@code from} whose partition is above {@code
   * partition}.
   */
  /**
   * The sorted records partition by partition, for a writer that asks for partitions 0, 1, ... in
   * order (each one's records follow the previous one's).
   */
  PartitionedWriter.Source partitions() {
    int[] next = {0};
    return p -> {
      int from = next[0];
      next[0] = endOfPartition(from, p);
      return iterator(from, next[0]);
    };
  }

  private int endOfPartition(int from, int partition) {
    int i = from;
    while (i < records && partition(i) == partition) {
      i++;
    }
    return i;
  }

  /** Records {@code from} (inclusive) to {@code to} (exclusive), in their current order. */
  RawKeyValueIterator iterator(int from, int to) {
    return new BufferedRawIterator() {
      private int next = from;

      @Override
      public boolean next() {
        if (next >= to) {
          return false;
        }
        int m = metaIndex(next++);
        int keyStart = meta.get(m + KEY_START);
        int keyLength = meta.get(m + KEY_LENGTH);
        key.reset(bytes, keyStart, keyLength);
        value.reset(bytes, keyStart + keyLength, meta.get(m + VALUE_LENGTH));
        return true;
      }
    };
  }

  @Override
  public int compare(int i, int j) {
    int mi = metaIndex(i);
    int mj = metaIndex(j);
    int pi = meta.get(mi + PARTITION);
    int pj = meta.get(mj + PARTITION);
    if (pi != pj) {
      return Integer.compare(pi, pj);
    }
    return comparator.compare(
        bytes,
        meta.get(mi + KEY_START),
        meta.get(mi + KEY_LENGTH),
        bytes,
        meta.get(mj + KEY_START),
        meta.get(mj + KEY_LENGTH));
  }

  @Override
  public void swap(int i, int j) {
    int mi = metaIndex(i);
    int mj = metaIndex(j);
    for (int k = 0; k < META_INTS; k++) {
      int t = meta.get(mi + k);
      meta.put(mi + k, meta.get(mj + k));
      meta.put(mj + k, t);
    }
  }

  private int metaIndex(int record) {
    return meta.capacity() - (record + 1) * META_INTS;
  }
}
