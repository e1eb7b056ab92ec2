package dev.levee.bench.hadoop.median.suite;

/** The derived figures of a run: slowdowns, overlaps and the no-spill overhead check. */
final class Ratios {
  /** SpongeFiles may cost at most this much more than stock when nothing spills. */
  static final double NO_SPILL_TOLERANCE = 0.05;

  private Ratios() {}

  /** How many times longer a job took next to another than alone (1.0 = not slowed at all). */
  static double slowdown(double withSeconds, double aloneSeconds) {
    if (!(aloneSeconds > 0) || !(withSeconds > 0)) {
      throw new IllegalArgumentException(
          "slowdown needs positive times, got "
              + withSeconds
              + " s next to another and "
              + aloneSeconds
              + " s alone");
    }
    return withSeconds / aloneSeconds;
  }

  /**
   * Fraction of {@code [aStart, aEnd]} that falls inside {@code [bStart, bEnd]} (any time unit); 0
   * when they do not meet. Says how much of the co-runner's life really overlapped the job it is
   * said to have been slowed by.
   */
  static double overlapFraction(long aStart, long aEnd, long bStart, long bEnd) {
    if (aEnd <= aStart) {
      throw new IllegalArgumentException("empty interval [" + aStart + ", " + aEnd + "]");
    }
    long overlap = Math.min(aEnd, bEnd) - Math.max(aStart, bStart);
    return Math.max(0, overlap) / (double) (aEnd - aStart);
  }

  /**
   * Whether {@code pluginSeconds} is at most {@link #NO_SPILL_TOLERANCE} above {@code
   * stockSeconds}.
   */
  static boolean withinNoSpillTolerance(double pluginSeconds, double stockSeconds) {
    return pluginSeconds <= stockSeconds * (1 + NO_SPILL_TOLERANCE);
  }
}
