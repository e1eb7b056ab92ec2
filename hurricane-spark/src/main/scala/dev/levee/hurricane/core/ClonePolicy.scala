package dev.levee.hurricane.core

/**
 * When to give a running task another clone: Hurricane's rule (Bindschaedler, "An Architecture for Load Balance in
 * Computer Cluster Applications", EPFL thesis 2020, Eq. 4.1). With k workers on the bag and T seconds left without
 * a new clone, one more takes about k/(k+1)·T plus T_IO, the cost of starting it and reading its share; so clone
 * iff T > (k+1)·T_IO. Near a task's end T is small and the rule refuses.
 *
 * The thesis's rule weighs no merge: its merges were cheap next to the work (bitsets, sums). An aggregation whose
 * partials hold about as many keys as they read records (distinct pairs, say) is merged key by key again, serially,
 * on the owner: measured here, such a clone made the task 1.6-1.7x slower. So a clone also costs T_merge, the owner's
 * merge of the keys the clone's partial adds (and, for the first clone, of the owner's own partial, which needs no
 * merge without clones): clone iff T > (k+1)·(T_IO + T_merge). With no keys reported (shapes whose merge is a
 * concatenation or a streaming merge) or `mergeCost` 0 it is the thesis's rule.
 *
 * @param ioFactor  T_IO counts each byte a clone reads this many times (the thesis: 2, read plus write)
 * @param launchSeconds fixed cost of starting a clone (a one-task job), added to T_IO
 * @param maxWorkers at most this many workers (owner included) per bag
 * @param mergeCost seconds the merge spends per partial key, relative to a worker's seconds per record read
 */
final case class ClonePolicy(
    ioFactor: Double,
    launchSeconds: Double,
    maxWorkers: Int,
    mergeCost: Double = 0
) {
  require(ioFactor >= 0 && launchSeconds >= 0 && maxWorkers >= 1 && mergeCost >= 0)

  /** Expected seconds left with one more worker: k/(k+1)·T + T_IO. */
  def timeWithClone(remainingSeconds: Double, workers: Int, ioSeconds: Double): Double =
    workers.toDouble / (workers + 1) * remainingSeconds + ioSeconds

  /** Eq. 4.1: T > (k+1)·T_IO, within the worker cap (T_IO here includes the merge a clone adds). */
  def worthCloning(remainingSeconds: Double, workers: Int, ioSeconds: Double): Boolean =
    workers < maxWorkers && remainingSeconds > (workers + 1) * ioSeconds

  /**
   * Seconds of serial merge one more clone adds to its owner: the keys of the clone's partial (its share of the
   * remaining work, T·k/(k+1) seconds of one worker's reading, times keys per record) and, when no merge happens yet,
   * the keys of the owner's partial (what it read so far and its share to come).
   */
  def mergeSeconds(remainingSeconds: Double, workers: Int, merge: MergeLoad): Double =
    if (mergeCost == 0 || merge.keysPerRecord == 0) 0
    else {
      val cloneShare = remainingSeconds * workers / (workers + 1)
      val ownerPartial = if (merge.merging) 0 else merge.elapsedSeconds + cloneShare
      mergeCost * merge.keysPerRecord * (cloneShare + ownerPartial)
    }

  /**
   * The rule applied to what a coordinator observes of a bag: `remainingBytes` left, drained at
   * `drainBytesPerSecond` by all `workers` together (processing included, so compute skew shows). A new clone
   * reads about an equal share of what is left at `ioBytesPerSecond`, one worker's fetch rate: T_IO is I/O time,
   * not processing time, as in the thesis. `merge` is what the workers reported of their keys.
   */
  def decide(
      remainingBytes: Long,
      drainBytesPerSecond: Double,
      ioBytesPerSecond: Double,
      workers: Int,
      merge: MergeLoad = MergeLoad.None
  ): ClonePolicy.Decision = {
    if (drainBytesPerSecond <= 0 || ioBytesPerSecond <= 0 || remainingBytes <= 0)
      ClonePolicy.Decision(false, 0, 0)
    else {
      val t = remainingBytes / drainBytesPerSecond
      val share = remainingBytes.toDouble / (workers + 1)
      val tIo = ioFactor * share / ioBytesPerSecond + launchSeconds
      val tMerge = mergeSeconds(t, workers, merge)
      ClonePolicy.Decision(worthCloning(t, workers, tIo + tMerge), t, tIo, tMerge)
    }
  }
}

object ClonePolicy {
  final case class Decision(
      cloneNow: Boolean,
      remainingSeconds: Double,
      ioSeconds: Double,
      mergeSeconds: Double = 0
  )
}

/**
 * What a bag's workers reported that bears on its merge: distinct keys per record read (summed over the workers'
 * partials, as the merge takes them), the seconds the bag has been read, and whether a merge happens already (a
 * clone was started before).
 */
final case class MergeLoad(keysPerRecord: Double, elapsedSeconds: Double, merging: Boolean) {
  require(keysPerRecord >= 0 && keysPerRecord <= 1 && elapsedSeconds >= 0)
}

object MergeLoad {
  val None: MergeLoad = MergeLoad(0, 0, merging = true)
}
