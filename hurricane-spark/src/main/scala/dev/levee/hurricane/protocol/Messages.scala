package dev.levee.hurricane.protocol

import dev.levee.hurricane.core.{MapRange, WorkerLoad}

/**
 * Names one bag: the input of one read of reduce partition `reducePartition` of shuffle `shuffleId` by task
 * `taskPartition` of stage attempt `stageId`.`stageAttempt`. `occurrence` tells apart two reads of the same shuffle
 * partition inside one task (a union or zip of the same shuffled RDD). Every attempt of that task, and every clone
 * of it, names the same bag; a re-attempted stage starts a fresh one.
 */
final case class BagKey(
    stageId: Int,
    stageAttempt: Int,
    taskPartition: Int,
    shuffleId: Int,
    reducePartition: Int,
    occurrence: Int
) {
  override def toString: String =
    s"bag(stage $stageId.$stageAttempt task $taskPartition shuffle $shuffleId partition $reducePartition" +
      (if (occurrence > 0) s" read $occurrence)" else ")")
}

/** What a task asks the driver's coordinator. */
sealed trait Request

/**
 * Opens the bag if it is new: `blockSizes(i)` is the size of map task i's block for the partition, as the opener's
 * map-output tracker reports it. Later openers' sizes are ignored (one plan per bag). `keyed`: the bag's merge takes
 * every key of every partial again (an aggregation's), so its workers report their keys and no clone decision is
 * made before the first report.
 */
final case class Open(bag: BagKey, blockSizes: Array[Long], keyed: Boolean = false) extends Request

/**
 * The next chunks for `attempt` (a task attempt id) of worker `worker`, which has processed `position` log entries
 * and read `load` so far (what the clone policy weighs a merge by).
 */
final case class Grant(
    bag: BagKey,
    worker: Int,
    attempt: Long,
    position: Int,
    load: WorkerLoad = WorkerLoad.Unknown
) extends Request

/** The owner has drained its own log: how do the clones stand? */
final case class CloneStates(bag: BagKey) extends Request

/** The owner will process clone `worker`'s chunks itself (its partial is gone or will never come). */
final case class Adopt(bag: BagKey, worker: Int) extends Request

/** Task attempt `attempt` ended (sent without a reply, so a retry need not wait for the listener bus). */
final case class AttemptEnded(attempt: Long) extends Request

/** The coordinator's answers. */
sealed trait Reply

/** The bag is open with `chunks` chunks. */
final case class Opened(chunks: Int) extends Reply

/**
 * Log entries `from` until `from + ranges.size` of the asking worker: read these map ranges. `whole` says these
 * ranges are the partition's entire input (the first grant took every chunk and no clone exists, nor can one
 * start), so the reader may pass the delegate's read through without a merge.
 */
final case class Granted(from: Int, ranges: IndexedSeq[MapRange], whole: Boolean) extends Reply

/** Another attempt of the same worker leads and has not extended the log yet: ask again shortly. */
case object WaitAndRetry extends Reply

/** The worker's log is complete and fully handed out. */
case object Complete extends Reply

/** The bag is unknown (its stage finished, or it was never opened): the asking attempt is obsolete. */
case object UnknownBag extends Reply

/** Per clone: running, done (its cached partial is block `rdd_<rddId>_0`), or given up (adopt it). */
sealed trait CloneState { def worker: Int }
final case class CloneRunning(worker: Int) extends CloneState
final case class CloneDone(worker: Int, rddId: Int) extends CloneState
final case class CloneGivenUp(worker: Int) extends CloneState

final case class Clones(states: IndexedSeq[CloneState]) extends Reply

/** The adopted worker's complete log. */
final case class Adopted(ranges: IndexedSeq[MapRange]) extends Reply

/** Nothing to say (the answer to a one-way message). */
case object Ack extends Reply
