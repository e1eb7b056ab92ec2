package dev.levee.hurricane.core

/**
 * When to give a running task another clone: Hurricane's rule (Bindschaedler, "An Architecture for Load Balance in
 * Computer Cluster Applications", EPFL thesis 2020, Eq. 4.1). With k workers on the bag and T seconds left without
 * a new clone, one more takes about k/(k+1)·T plus T_IO, the cost of starting it and reading its share; so clone
 * iff T > (k+1)·T_IO. Near a task's end T is small and the rule refuses.
 *
 * @param ioFactor  T_IO counts each byte a clone reads this many times (the thesis: 2, read plus write)
 * @param launchSeconds fixed cost of starting a clone (a one-task job), added to T_IO
 * @param maxWorkers at most this many workers (owner included) per bag
 */
final case class ClonePolicy(ioFactor: Double, launchSeconds: Double, maxWorkers: Int) {
  require(ioFactor >= 0 && launchSeconds >= 0 && maxWorkers >= 1)

  /** Expected seconds left with one more worker: k/(k+1)·T + T_IO. */
  def timeWithClone(remainingSeconds: Double, workers: Int, ioSeconds: Double): Double =
    workers.toDouble / (workers + 1) * remainingSeconds + ioSeconds

  /** Eq. 4.1: T > (k+1)·T_IO, within the worker cap. */
  def worthCloning(remainingSeconds: Double, workers: Int, ioSeconds: Double): Boolean =
    workers < maxWorkers && remainingSeconds > (workers + 1) * ioSeconds

  /**
   * The rule applied to what a coordinator observes of a bag: `remainingBytes` left, drained at
   * `drainBytesPerSecond` by all `workers` together (processing included, so compute skew shows). A new clone
   * reads about an equal share of what is left at `ioBytesPerSecond`, one worker's fetch rate: T_IO is I/O time,
   * not processing time, as in the thesis.
   */
  def decide(
      remainingBytes: Long,
      drainBytesPerSecond: Double,
      ioBytesPerSecond: Double,
      workers: Int
  ): ClonePolicy.Decision = {
    if (drainBytesPerSecond <= 0 || ioBytesPerSecond <= 0 || remainingBytes <= 0)
      ClonePolicy.Decision(false, 0, 0)
    else {
      val t = remainingBytes / drainBytesPerSecond
      val share = remainingBytes.toDouble / (workers + 1)
      val tIo = ioFactor * share / ioBytesPerSecond + launchSeconds
      ClonePolicy.Decision(worthCloning(t, workers, tIo), t, tIo)
    }
  }
}

object ClonePolicy {
  final case class Decision(cloneNow: Boolean, remainingSeconds: Double, ioSeconds: Double)
}
