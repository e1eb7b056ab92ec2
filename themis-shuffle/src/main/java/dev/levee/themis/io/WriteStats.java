package dev.levee.themis.io;

/**
 * How a task wrote its intermediate files: number of write calls reaching the file system, their
 * bytes, and a coarse size histogram (powers of four from 4 KiB to 16 MiB) from which the median
 * write size can be read across tasks, as the paper's Fig. 13 reports it.
 */
public final class WriteStats {
  /** Upper bounds (exclusive) of the histogram buckets; the last bucket is open. */
  public static final long[] BUCKET_LIMITS = {
    4L << 10, 16L << 10, 64L << 10, 256L << 10, 1L << 20, 4L << 20, 16L << 20
  };

  /** Counter-name suffix of each bucket, e.g. {@code lt_4k}, {@code ge_16m}. */
  public static final String[] BUCKET_NAMES = {
    "lt_4k", "lt_16k", "lt_64k", "lt_256k", "lt_1m", "lt_4m", "lt_16m", "ge_16m"
  };

  private long writes;
  private long bytes;
  private final long[] buckets = new long[BUCKET_NAMES.length];

  public void record(int length) {
    if (length <= 0) {
      return;
    }
    writes++;
    bytes += length;
    buckets[bucketOf(length)]++;
  }

  public static int bucketOf(long length) {
    for (int i = 0; i < BUCKET_LIMITS.length; i++) {
      if (length < BUCKET_LIMITS[i]) {
        return i;
      }
    }
    return BUCKET_LIMITS.length;
  }

  public long writes() {
    return writes;
  }

  public long bytes() {
    return bytes;
  }

  public long bucket(int index) {
    return buckets[index];
  }

  public void addAll(WriteStats other) {
    writes += other.writes;
    bytes += other.bytes;
    for (int i = 0; i < buckets.length; i++) {
      buckets[i] += other.buckets[i];
    }
  }
}
