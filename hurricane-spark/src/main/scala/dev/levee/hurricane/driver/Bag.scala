package dev.levee.hurricane.driver

import scala.collection.mutable

import dev.levee.hurricane.core.{GrantLedger, MapRange, MergeLoad, WorkerLoad}
import dev.levee.hurricane.protocol.BagKey

/** The driver's view of one bag: its chunk plan, who holds which chunks, its clones and how fast it drains. */
private[hurricane] final class Bag(
    val key: BagKey,
    val plan: IndexedSeq[MapRange],
    openedNanos: Long,
    val keyed: Boolean = false
) {
  val ledger = new GrantLedger(plan.size)
  val totalBytes: Long = plan.iterator.map(_.bytes).sum
  private var grantedBytes = 0L
  private var firstGrantNanos = -1L
  var lastCloneNanos: Long = openedNanos

  /** Whether this bag was refused a clone for its merge's sake (counted and logged once). */
  var refusalLogged = false

  /** Static seeds of a keyed bag not started yet: they wait until its merge can be weighed. */
  var pendingSeeds = 0

  /** Clone workers (1..) and how each stands. */
  val clones = mutable.LinkedHashMap.empty[Int, Bag.Clone]

  /** Task attempts now working on this bag, by attempt id, and the worker each serves. */
  val runningAttempts = mutable.Map.empty[Long, Int]

  /** Each worker's latest report of what it read (a retried attempt's report replaces its predecessor's). */
  private val loads = mutable.Map.empty[Int, WorkerLoad]

  def remainingBytes: Long = totalBytes - grantedBytes

  def reported(worker: Int, load: WorkerLoad): Unit =
    if (load.records > 0) loads(worker) = load

  /**
   * What a merge of this bag's partials would take, per record read: the workers' distinct keys summed (each
   * partial is merged key by key) over their records summed. None for a keyed bag no worker has reported on yet:
   * its merge cannot be weighed, so no clone is decided.
   */
  def mergeLoad(nowNanos: Long): Option[MergeLoad] = {
    val records = loads.valuesIterator.map(_.records).sum
    val keys = loads.valuesIterator.map(_.keys).sum
    if (keyed && records == 0) None
    else
      Some(
        MergeLoad(
          if (records == 0) 0 else keys.toDouble / records,
          if (firstGrantNanos < 0) 0 else math.max(0, nowNanos - firstGrantNanos) / 1e9,
          merging = clones.nonEmpty
        )
      )
  }

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
