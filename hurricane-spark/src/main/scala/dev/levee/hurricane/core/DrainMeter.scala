package dev.levee.hurricane.core

/**
 * How fast a bag drains, as an exponentially weighted moving average of bytes per second between observations.
 * The policy's T is the bag's remaining bytes over this rate, so a task that slows down (compute skew, a slow
 * machine) shows up as a longer T, which byte sizes alone never reveal.
 */
final class DrainMeter(alpha: Double) {
  require(alpha > 0 && alpha <= 1)
  private var lastNanos = -1L
  private var rate = 0.0

  /** `bytes` were granted (and so drained from the bag) at `nowNanos`. */
  def observe(nowNanos: Long, bytes: Long): Unit = {
    if (lastNanos >= 0 && nowNanos > lastNanos) {
      val sample = bytes / ((nowNanos - lastNanos) / 1e9)
      rate = if (rate == 0) sample else alpha * sample + (1 - alpha) * rate
    }
    lastNanos = nowNanos
  }

  def bytesPerSecond: Double = rate
}
