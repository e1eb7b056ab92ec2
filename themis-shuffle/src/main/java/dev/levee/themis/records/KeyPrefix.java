package dev.levee.themis.records;

import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.IntWritable;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableUtils;

/**
 * The first eight bytes of a serialized key as an unsigned long that orders keys as the job's
 * comparator does, for the comparators whose order is known: when two prefixes differ, their
 * unsigned order is the keys' order, and only keys with equal prefixes need the comparator.
 *
 * <p>Why: a pointer sort that calls the comparator on every comparison chases two pointers into the
 * record pages each time, a cache miss per side, and that was two thirds of a Themis reducer's CPU
 * on the Sort workload (JFR). With the prefix beside the pointer, almost every comparison reads two
 * longs in a sequential array. This is the key-prefix sort of AlphaSort (Nyberg, Barclay,
 * Cvetanovic, Gray and Lomet, "AlphaSort: A Cache-Sensitive Parallel External Sort", VLDB Journal
 * 1995); the Themis paper leaves the form of its in-memory sort open.
 *
 * <p>Only the exact classes of Hadoop's own raw comparators are recognized (a subclass may change
 * the order, as {@code LongWritable.DecreasingComparator} does); any other comparator sorts without
 * a prefix, exactly as before.
 */
public abstract class KeyPrefix {
  /** Whether equal prefixes mean equal keys, so the comparator is never needed. */
  private final boolean decisive;

  private KeyPrefix(boolean decisive) {
    this.decisive = decisive;
  }

  /** The prefix for the comparator, or {@code null} when its order is not known to be bytewise. */
  public static KeyPrefix forComparator(RawComparator<?> comparator) {
    if (comparator == null) {
      return null;
    }
    Class<?> type = comparator.getClass();
    if (type == Text.Comparator.class) {
      return TEXT;
    }
    if (type == BytesWritable.Comparator.class) {
      return BYTES;
    }
    if (type == LongWritable.Comparator.class) {
      return LONG;
    }
    if (type == IntWritable.Comparator.class) {
      return INT;
    }
    return null;
  }

  /** The prefix of the key serialized at {@code bytes[start, start + length)}. */
  public abstract long of(byte[] bytes, int start, int length);

  public final boolean decisive() {
    return decisive;
  }

  /**
   * Up to eight bytes from {@code from}, big-endian, missing bytes as zeros: zero is the least
   * byte, so a key that ends early sorts first, as in a bytewise comparison.
   */
  static long bigEndian(byte[] bytes, int from, int available) {
    int n = Math.min(8, Math.max(0, available));
    long v = 0;
    for (int i = 0; i < n; i++) {
      v = (v << 8) | (bytes[from + i] & 0xFFL);
    }
    return v << (8 * (8 - n));
  }

  /** {@link Text}: a vint length, then the UTF-8 bytes compared bytewise. */
  private static final KeyPrefix TEXT =
      new KeyPrefix(false) {
        @Override
        public long of(byte[] bytes, int start, int length) {
          int header = WritableUtils.decodeVIntSize(bytes[start]);
          return bigEndian(bytes, start + header, length - header);
        }
      };

  /** {@link BytesWritable}: a four-byte length, then the bytes compared bytewise. */
  private static final KeyPrefix BYTES =
      new KeyPrefix(false) {
        @Override
        public long of(byte[] bytes, int start, int length) {
          return bigEndian(bytes, start + 4, length - 4);
        }
      };

  /** {@link LongWritable}: a signed big-endian long; flipping the sign bit orders it unsigned. */
  private static final KeyPrefix LONG =
      new KeyPrefix(true) {
        @Override
        public long of(byte[] bytes, int start, int length) {
          return bigEndian(bytes, start, 8) ^ Long.MIN_VALUE;
        }
      };

  /** {@link IntWritable}: a signed big-endian int, placed high and sign-flipped likewise. */
  private static final KeyPrefix INT =
      new KeyPrefix(true) {
        @Override
        public long of(byte[] bytes, int start, int length) {
          return bigEndian(bytes, start, 4) ^ Long.MIN_VALUE;
        }
      };
}
