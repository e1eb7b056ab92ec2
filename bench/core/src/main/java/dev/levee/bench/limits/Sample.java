package dev.levee.bench.limits;

/**
 * Bytes moved in a timed interval. Bandwidth is in MB/s with MB = 10^6 bytes, as disks and NICs are
 * rated.
 */
public record Sample(long bytes, long nanos) {

  public double seconds() {
    return nanos / 1e9;
  }

  public double mbPerSecond() {
    return bytes / 1e6 / seconds();
  }

  public static Sample timed(long bytes, long startNanos) {
    return new Sample(bytes, Math.max(1, System.nanoTime() - startNanos));
  }
}
