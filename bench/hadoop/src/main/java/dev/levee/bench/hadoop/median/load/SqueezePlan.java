package dev.levee.bench.hadoop.median.load;

/**
 * How much memory the page-cache squeeze pins, and when it gives memory back: pure arithmetic over
 * {@code /proc/meminfo} figures, so the safety rules can be tested without touching the machine.
 *
 * <p>The squeeze pins {@code MemAvailable - leave} (at most {@code max}), so what the page cache
 * can still use is about {@code leave}. It never grows after that. Whenever {@code MemAvailable}
 * falls below {@code floor} (another process, or the job itself, needs memory) it shrinks at once
 * back to {@code leave}: the squeeze is a balloon that yields, never the reason anything on the
 * machine runs out of memory.
 *
 * @param leaveBytes what {@code MemAvailable} is squeezed down to
 * @param floorBytes below this the balloon deflates; {@code floor <= leave}
 * @param maxBytes the most it ever pins
 */
public record SqueezePlan(long leaveBytes, long floorBytes, long maxBytes) {
  /** Deflation granularity: small enough to give back promptly, large enough not to thrash. */
  public static final long STEP_BYTES = 64L << 20;

  /**
   * Never squeeze harder than this, whatever is asked: the rest of the machine needs room to
   * breathe.
   */
  public static final long MIN_LEAVE_BYTES = 1L << 30;

  /** Never pin more than the machine's memory minus this. */
  public static final long MIN_UNPINNED_BYTES = 2L << 30;

  public SqueezePlan {
    if (leaveBytes < MIN_LEAVE_BYTES) {
      throw new IllegalArgumentException(
          "leave=" + leaveBytes + " bytes: at least " + MIN_LEAVE_BYTES + " required");
    }
    if (floorBytes <= 0 || floorBytes > leaveBytes) {
      throw new IllegalArgumentException(
          "floor=" + floorBytes + " bytes: must be in (0, leave=" + leaveBytes + "]");
    }
    if (maxBytes < 0) {
      throw new IllegalArgumentException("max=" + maxBytes + " bytes: must be >= 0");
    }
  }

  /** The floor used with a given leave: half of it, so short bursts do not deflate the balloon. */
  public static SqueezePlan withDefaultFloor(long leaveBytes, long maxBytes) {
    return new SqueezePlan(leaveBytes, Math.max(MIN_LEAVE_BYTES / 2, leaveBytes / 2), maxBytes);
  }

  /**
   * Bytes to pin now: {@code available - leave}, capped by {@code max} and by total minus the
   * unpinned minimum.
   */
  public long pinBytes(MemInfo now) {
    long cap = Math.min(maxBytes, now.totalBytes() - MIN_UNPINNED_BYTES);
    long want = Math.min(now.availableBytes() - leaveBytes, cap);
    return Math.max(0, want / STEP_BYTES * STEP_BYTES);
  }

  /**
   * The pinned size to shrink to, given what is pinned and what is available now: unchanged while
   * {@code available >= floor}, else smaller by enough to bring {@code available} back to {@code
   * leave}.
   */
  public long deflatedSize(long pinnedBytes, long availableBytes) {
    if (availableBytes >= floorBytes || pinnedBytes == 0) {
      return pinnedBytes;
    }
    long need = leaveBytes - availableBytes;
    long release = (need + STEP_BYTES - 1) / STEP_BYTES * STEP_BYTES;
    return Math.max(0, pinnedBytes - release);
  }
}
