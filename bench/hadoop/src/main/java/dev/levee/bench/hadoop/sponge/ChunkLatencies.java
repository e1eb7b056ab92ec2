package dev.levee.bench.hadoop.sponge;

import java.util.Arrays;

/**
 * Per-chunk times of one phase (the writes, or the read-backs) of a spill run, plus the phase's
 * wall time, which also covers work done outside the per-chunk calls (sealing a file, syncing).
 * Percentiles use the nearest-rank method on the sorted samples, so every reported figure is a time
 * that was actually measured.
 */
public final class ChunkLatencies {
  private final long[] nanos;
  private int count;
  private long wallNanos;

  public ChunkLatencies(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
    }
    nanos = new long[capacity];
  }

  public void add(long sampleNanos) {
    if (sampleNanos < 0) {
      throw new IllegalArgumentException(
          "a chunk cannot take negative time: " + sampleNanos + " ns");
    }
    if (count == nanos.length) {
      throw new IllegalStateException("already holds " + count + " samples, its capacity");
    }
    nanos[count++] = sampleNanos;
  }

  /** Adds to the phase's wall time (a phase is timed in batches). */
  public void addWallNanos(long n) {
    wallNanos += n;
  }

  public int count() {
    return count;
  }

  public long wallNanos() {
    return wallNanos;
  }

  /**
   * The nearest-rank {@code q}-quantile in milliseconds, {@code 0 < q <= 1}: the smallest sample
   * with at least {@code q * count} samples at or below it.
   */
  public double percentileMillis(double q) {
    if (!(q > 0 && q <= 1)) {
      throw new IllegalArgumentException("quantile must be in (0, 1], got " + q);
    }
    if (count == 0) {
      throw new IllegalStateException("no samples");
    }
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(q * count); // 1-based
    return sorted[Math.max(rank, 1) - 1] / 1e6;
  }

  public double medianMillis() {
    return percentileMillis(0.5);
  }

  public double meanMillis() {
    if (count == 0) {
      throw new IllegalStateException("no samples");
    }
    long sum = 0;
    for (int i = 0; i < count; i++) {
      sum += nanos[i];
    }
    return sum / 1e6 / count;
  }

  /**
   * Megabytes (10^6 bytes, like the physical-limits suite) per second of wall time for {@code
   * bytes}.
   */
  public double mbPerSecond(long bytes) {
    if (wallNanos <= 0) {
      throw new IllegalStateException("no wall time recorded");
    }
    return bytes / 1e6 / (wallNanos / 1e9);
  }
}
