package dev.levee.themis.plan;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.hadoop.io.DataInputBuffer;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.util.Progress;

/**
 * One split prefix's map output held serialized, as a map holds it before it writes: sorted by the
 * job's key comparator it feeds the combiner, and its key groups can be counted over any leading
 * part of the input.
 */
final class BufferedRecords {
  private final DataOutputBuffer data = new DataOutputBuffer();
  private int[] keyStart = new int[1024];
  private int[] keyLength = new int[1024];
  private int[] valueLength = new int[1024];
  private long[] inputPosition = new long[1024];
  private int size;

  /** Starts a record: its key and value are serialized into {@link #out()} next. */
  DataOutputBuffer out() {
    return data;
  }

  int mark() {
    return data.getLength();
  }

  /**
   * Ends the record started at {@code start}, whose key ends at {@code keyEnd}, emitted once the
   * mapper had read {@code position} input bytes.
   */
  void add(int start, int keyEnd, long position) {
    if (size == keyStart.length) {
      int n = size * 2;
      keyStart = Arrays.copyOf(keyStart, n);
      keyLength = Arrays.copyOf(keyLength, n);
      valueLength = Arrays.copyOf(valueLength, n);
      inputPosition = Arrays.copyOf(inputPosition, n);
    }
    keyStart[size] = start;
    keyLength[size] = keyEnd - start;
    valueLength[size] = data.getLength() - keyEnd;
    inputPosition[size] = position;
    size++;
  }

  int size() {
    return size;
  }

  long bytes() {
    return data.getLength();
  }

  void clear() {
    data.reset();
    size = 0;
  }

  /** The records emitted once at most {@code position} input bytes had been read. */
  int emittedBy(long position) {
    int n = 0;
    while (n < size && inputPosition[n] <= position) {
      n++;
    }
    return n;
  }

  /** The first {@code n} records (in emission order) sorted by {@code comparator}. */
  Integer[] sorted(int n, RawComparator<?> comparator) {
    Integer[] order = new Integer[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    byte[] b = data.getData();
    Comparator<Integer> byKey =
        (x, y) -> comparator.compare(b, keyStart[x], keyLength[x], b, keyStart[y], keyLength[y]);
    Arrays.sort(order, byKey);
    return order;
  }

  /** Distinct keys among {@code order} (sorted) as {@code grouping} tells them apart. */
  int groups(Integer[] order, RawComparator<?> grouping) {
    byte[] b = data.getData();
    int groups = 0;
    for (int i = 0; i < order.length; i++) {
      if (i == 0
          || grouping.compare(
                  b,
                  keyStart[order[i - 1]],
                  keyLength[order[i - 1]],
                  b,
                  keyStart[order[i]],
                  keyLength[order[i]])
              != 0) {
        groups++;
      }
    }
    return groups;
  }

  /** The records in {@code order}, as a reduce-side input. */
  RawKeyValueIterator iterator(Integer[] order) {
    byte[] b = data.getData();
    return new RawKeyValueIterator() {
      private final DataInputBuffer key = new DataInputBuffer();
      private final DataInputBuffer value = new DataInputBuffer();
      private final Progress progress = new Progress();
      private int next;

      @Override
      public DataInputBuffer getKey() {
        return key;
      }

      @Override
      public DataInputBuffer getValue() {
        return value;
      }

      @Override
      public boolean next() throws IOException {
        if (next >= order.length) {
          return false;
        }
        int r = order[next++];
        key.reset(b, keyStart[r], keyLength[r]);
        value.reset(b, keyStart[r] + keyLength[r], valueLength[r]);
        return true;
      }

      @Override
      public void close() {}

      @Override
      public Progress getProgress() {
        return progress;
      }
    };
  }
}
