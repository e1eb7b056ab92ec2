package dev.levee.hurricane.driver

import scala.collection.mutable

import dev.levee.hurricane.core.{GrantLedger, MapRange}
import dev.levee.hurricane.protocol.BagKey

/** The driver's view of one bag: its chunk plan, who holds which chunks, its clones and how fast it drains. */
private[hurricane] final class Bag(
    val key: BagKey,
    val plan: IndexedSeq[MapRange],
    openedNanos: Long
) {
  val ledger = new GrantLedger(plan.size)
  val totalBytes: Long = plan.iterator.map(_.bytes).sum
  private var grantedBytes = 0L
  private var firstGrantNanos = -1L
  var lastCloneNanos: Long = openedNanos

  /** Clone workers (1..) and how each stands. */
  val clones = mutable.LinkedHashMap.empty[Int, Bag.Clone]

  /** Task attempts now working on this bag, by attempt id, and the worker each serves. */
  val runningAttempts = mutable.Map.empty[Long, Int]

  def remainingBytes: Long = totalBytes - grantedBytes

  def granted(ranges: Iterable[MapRange], nowNanos: Long): Unit = {
    if (firstGrantNanos < 0) firstGrantNanos = nowNanos
    grantedBytes += ranges.iterator.map(_.bytes).sum
  }

  /**
   * Bytes per second the bag has drained since its first grant: what its workers took over the time they have been
   * taking. The last window is counted as drained although it is still being read, so the rate errs high and the
   * remaining time low: a clone is never started on an inflated estimate.
   */
  def drainRate(nowNanos: Long): Double =
    if (firstGrantNanos < 0 || nowNanos <= firstGrantNanos) 0.0
    else grantedBytes / ((nowNanos - firstGrantNanos) / 1e9)

  /** Workers that still take chunks: the owner and every clone neither finished nor given up. */
  def activeWorkers: Int = 1 + clones.valuesIterator.count(_.state == Bag.Launched)

  def ownerRunning: Boolean = runningAttempts.valuesIterator.contains(0)

  def workerRunning(worker: Int): Boolean = runningAttempts.valuesIterator.contains(worker)
}

private[hurricane] object Bag {
  sealed trait CloneStateKind
  case object Launched extends CloneStateKind
  case object Done extends CloneStateKind
  case object GivenUp extends CloneStateKind

  final class Clone(val rddId: Int, val cancel: () => Unit) {
    var state: CloneStateKind = Launched
  }
}
