package dev.levee.hurricane.core

import scala.collection.mutable

/**
 * Who processes which chunk of one bag (one reduce partition's map-index ranges), exactly once, whatever the
 * engine retries.
 *
 * Chunks leave the bag through one cursor, so a chunk is granted once. Each worker slot (0 the owner, 1.. the
 * clones) has an append-only log of the chunks granted to it. Any attempt of a slot (a retry, a speculative copy,
 * the task of a re-attempted stage) first replays the slot's log from the start; only the slot's leader, the first
 * live attempt to reach the log's end, may extend it from the cursor. Others wait there until the leader extends
 * or seals the log, or fails (then the next to ask leads). A log is sealed once the bag is empty at its end, so a
 * successful attempt has processed exactly its slot's log. A slot that will never succeed (a clone job given up)
 * is adopted: its log is sealed as it stands and another worker replays it instead of merging its partial.
 *
 * Not thread-safe: the coordinator serializes calls (one ledger per bag, one message at a time).
 */
final class GrantLedger(val chunks: Int) {
  require(chunks >= 0, s"chunks must be >= 0, got $chunks")

  private var cursor = 0
  private val logs = mutable.ArrayBuffer(mutable.ArrayBuffer.empty[Int])
  private val sealedSlots = mutable.Set.empty[Int]
  private val adoptedSlots = mutable.Set.empty[Int]
  private val leaders = mutable.Map.empty[Int, Long]
  private var replayed = 0L

  /** Chunks still in the bag. */
  def remaining: Int = chunks - cursor

  def workers: Int = logs.size

  /** Opens a slot for a new clone and returns its id. */
  def addWorker(): Int = {
    logs += mutable.ArrayBuffer.empty[Int]
    logs.size - 1
  }

  def log(worker: Int): IndexedSeq[Int] = slot(worker).toIndexedSeq

  def isSealed(worker: Int): Boolean = sealedSlots(worker)

  def isAdopted(worker: Int): Boolean = adoptedSlots(worker)

  /** Chunks handed out again to an attempt that replays its slot's log. */
  def replayedChunks: Long = replayed

  /**
   * The next chunks for `attempt` of `worker`, which has processed the first `position` entries of the slot's log
   * (0 for a fresh attempt). At most `window` chunks come back.
   */
  def request(worker: Int, attempt: Long, position: Int, window: Int): GrantLedger.Reply = {
    require(window > 0, s"window must be > 0, got $window")
    val log = slot(worker)
    require(
      position >= 0 && position <= log.size,
      s"position $position outside worker $worker's log of ${log.size}"
    )
    if (position < log.size) {
      val until = math.min(log.size, position + window)
      replayed += until - position
      GrantLedger.Granted(position, log.slice(position, until).toIndexedSeq)
    } else if (sealedSlots(worker)) GrantLedger.End
    else
      leaders.get(worker) match {
        case Some(leader) if leader != attempt => GrantLedger.Wait
        case _                                 =>
          leaders(worker) = attempt
          val n = math.min(window, remaining)
          if (n == 0) {
            sealedSlots += worker
            GrantLedger.End
          } else {
            val granted = cursor until cursor + n
            cursor += n
            log ++= granted
            GrantLedger.Granted(position, granted)
          }
      }
  }

  /** `attempt` of `worker` is gone: if it led the slot, the next attempt to reach the log's end leads. */
  def attemptEnded(worker: Int, attempt: Long): Unit =
    if (leaders.get(worker).contains(attempt)) leaders -= worker

  /**
   * Seals `worker`'s log where it stands so that another worker processes it (by replay) instead of merging the
   * slot's partial; returns the log. The owner cannot be adopted.
   */
  def adopt(worker: Int): IndexedSeq[Int] = {
    require(worker > 0, "the owner's slot cannot be adopted")
    sealedSlots += worker
    adoptedSlots += worker
    leaders -= worker
    log(worker)
  }

  private def slot(worker: Int): mutable.ArrayBuffer[Int] = {
    require(worker >= 0 && worker < logs.size, s"no worker $worker (the bag has ${logs.size})")
    logs(worker)
  }
}

object GrantLedger {
  sealed trait Reply

  /** Log entries `from` until `from + chunks.size` of the asking slot, and the chunks they name. */
  final case class Granted(from: Int, chunks: IndexedSeq[Int]) extends Reply

  /** Another attempt leads the slot and has not extended the log yet: ask again shortly. */
  case object Wait extends Reply

  /** The slot's log is sealed and fully processed: the attempt's input is complete. */
  case object End extends Reply
}
