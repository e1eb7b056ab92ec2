package dev.levee.hurricane.driver

import java.util.concurrent.atomic.LongAdder

import scala.collection.mutable

import dev.levee.hurricane.HurricaneConf
import dev.levee.hurricane.core.{
  ChunkPlanner,
  ClonePolicy,
  GrantLedger,
  MapRange,
  MergeLoad,
  WorkerLoad
}
import dev.levee.hurricane.protocol._

/**
 * The driver's side of every bag: it plans chunks, hands them out through each bag's [[GrantLedger]], decides when
 * a bag gets another clone (Eq. 4.1 with the merge a clone adds, while a slot is idle; or at once for a partition
 * far above the median, from sizes alone, before any key is seen) and
 * tells an owner how its clones stand. One lock serializes everything; each call is a few map operations, and the
 * round trips it serves were measured at 1-2 ms (see the module README), so the lock is never the bottleneck.
 */
final class BagCoordinator(
    conf: HurricaneConf,
    launcher: CloneLauncher,
    private[hurricane] val slots: SlotTracker,
    nanoTime: () => Long = () => System.nanoTime()
) {
  import BagCoordinator.MaxMaps

  private val bags = mutable.Map.empty[BagKey, Bag]
  private val attemptBags = mutable.Map.empty[Long, BagKey]
  val metrics = new BagCoordinator.Metrics

  def handle(request: Request): Reply = synchronized {
    request match {
      case Open(key, sizes, keyed)                     => open(key, sizes, keyed)
      case Grant(key, worker, attempt, position, load) =>
        grant(key, worker, attempt, position, load)
      case CloneStates(key)      => bags.get(key).fold[Reply](UnknownBag)(cloneStates)
      case Adopt(key, worker)    => bags.get(key).fold[Reply](UnknownBag)(adopt(_, worker))
      case AttemptEnded(attempt) => attemptEnded(attempt); Ack
    }
  }

  private def open(key: BagKey, sizes: Array[Long], keyed: Boolean): Reply = {
    require(
      sizes.length <= MaxMaps,
      s"$key: ${sizes.length} map outputs, at most $MaxMaps are allowed"
    )
    require(sizes.forall(_ >= 0), s"$key: a negative block size")
    val bag = bags.getOrElseUpdate(
      key, {
        metrics.bagsOpened.increment()
        val b = new Bag(
          key,
          BagCoordinator.coverAllMaps(ChunkPlanner.plan(sizes.toIndexedSeq, conf.chunkTargetBytes)),
          nanoTime(),
          keyed
        )
        seedStatically(b)
        b
      }
    )
    Opened(bag.plan.size)
  }

  private def grant(
      key: BagKey,
      worker: Int,
      attempt: Long,
      position: Int,
      load: WorkerLoad
  ): Reply =
    bags.get(key) match {
      case None      => UnknownBag
      case Some(bag) =>
        require(worker >= 0 && worker < bag.ledger.workers, s"$key has no worker $worker")
        bag.reported(worker, load)
        bag.runningAttempts(attempt) = worker
        attemptBags(attempt) = key
        val logged = bag.ledger.log(worker).size
        bag.ledger.request(worker, attempt, position, conf.window) match {
          case GrantLedger.Granted(from, chunks) =>
            val ranges = chunks.map(bag.plan)
            if (from + chunks.size > logged) {
              val fresh = ranges.drop(logged - from)
              bag.granted(fresh, nanoTime())
              metrics.chunksGranted.add(fresh.size)
            }
            metrics.chunksReplayed.add(math.max(0, math.min(chunks.size, logged - from)))
            val whole =
              worker == 0 && from == 0 && bag.ledger.remaining == 0 && bag.clones.isEmpty &&
                chunks.size == bag.ledger.log(0).size
            Granted(from, ranges, whole)
          case GrantLedger.Wait => WaitAndRetry
          case GrantLedger.End  => Complete
        }
    }

  private def cloneStates(bag: Bag): Reply =
    Clones(bag.clones.iterator.map { case (worker, clone) =>
      clone.state match {
        case Bag.Done    => CloneDone(worker, clone.rddId)
        case Bag.GivenUp => CloneGivenUp(worker)
        // Running, or done with its log and only its job's completion still on the way (a task tells of its end
        // before the driver has its result): the partial is moments away.
        case Bag.Launched if bag.workerRunning(worker) || bag.ledger.isSealed(worker) =>
          CloneRunning(worker)
        case Bag.Launched =>
          // Not started, or between attempts, while the owner waits: the owner takes its chunks rather than hold
          // its slot for a clone that may need that very slot.
          giveUp(bag, worker, clone)
          CloneGivenUp(worker)
      }
    }.toIndexedSeq)

  private def adopt(bag: Bag, worker: Int): Reply = {
    val clone = bag.clones.getOrElse(
      worker,
      throw new IllegalArgumentException(s"${bag.key} has no clone $worker")
    )
    if (clone.state != Bag.GivenUp) giveUp(bag, worker, clone)
    Adopted(bag.ledger.log(worker).map(bag.plan))
  }

  private def giveUp(bag: Bag, worker: Int, clone: Bag.Clone): Unit = {
    bag.ledger.adopt(worker)
    if (clone.state == Bag.Launched) clone.cancel()
    clone.state = Bag.GivenUp
    metrics.clonesGivenUp.increment()
  }

  /** A task attempt ended (from the task itself or from the listener bus, whichever comes first). */
  def attemptEnded(attempt: Long): Unit = synchronized {
    attemptBags.remove(attempt).flatMap(bags.get).foreach { bag =>
      bag.runningAttempts
        .remove(attempt)
        .foreach(worker => bag.ledger.attemptEnded(worker, attempt))
    }
  }

  /** A clone job ended; its partial counts only if its log is complete and nobody adopted it meanwhile. */
  private def cloneEnded(key: BagKey, worker: Int, success: Boolean): Unit = synchronized {
    for (bag <- bags.get(key); clone <- bag.clones.get(worker) if clone.state == Bag.Launched) {
      if (success && bag.ledger.isSealed(worker)) {
        clone.state = Bag.Done
        metrics.clonesDone.increment()
      } else giveUp(bag, worker, clone)
    }
  }

  /** Every bag of a finished stage attempt is dropped with its clones' partials. */
  def stageAttemptEnded(stageId: Int, stageAttempt: Int): Unit = synchronized {
    val ended = bags.keys.filter(k => k.stageId == stageId && k.stageAttempt == stageAttempt).toList
    ended.foreach { key =>
      val bag = bags.remove(key).get
      bag.runningAttempts.keys.foreach(attemptBags.remove)
      bag.clones.valuesIterator.foreach { c =>
        if (c.state == Bag.Launched) c.cancel()
        launcher.release(c.rddId)
      }
    }
  }

  /**
   * One round of dynamic decisions. In Hurricane every worker of a bag (the owner and each clone) checks Eq. 4.1 and
   * may signal overload at most once per interval; so a bag due for a decision may get up to one clone per worker it
   * has, each only while a slot is idle and the rule still holds with one worker more, and its workers can double
   * per interval. Bags with the longest remaining time are served first.
   */
  def tick(): Unit = synchronized {
    if (bags.isEmpty) return
    val now = nanoTime()
    val policy = conf.clonePolicy(slots.slots)
    // With the merge not weighed, a keyed bag need not wait for its workers' first report.
    def merge(b: Bag) = if (conf.mergeCost == 0) Some(MergeLoad.None) else b.mergeLoad(now)
    def decide(b: Bag, workers: Int) = {
      val d = policy.decide(
        b.remainingBytes,
        b.drainRate(now),
        conf.readBytesPerSecond,
        workers,
        merge(b).get
      )
      if (
        !b.refusalLogged && !d.cloneNow && d.mergeSeconds > 0 &&
        policy.worthCloning(d.remainingSeconds, workers, d.ioSeconds)
      )
        noteRefusedForMerge(b, d, now)
      d
    }
    // Seeds held back until the merge could be weighed: started while a clone still pays, then dropped.
    for (b <- bags.valuesIterator if b.pendingSeeds > 0 && merge(b).isDefined) {
      while (b.pendingSeeds > 0 && decide(b, b.activeWorkers).cloneNow && launchClone(b)) {
        b.pendingSeeds -= 1
        b.lastCloneNanos = now
        metrics.clonesSeeded.increment()
      }
      b.pendingSeeds = 0
    }
    if (conf.mode != HurricaneConf.Dynamic) return
    var idle = if (conf.requireIdleSlot) slots.idleSlots else Int.MaxValue
    val due = bags.valuesIterator
      .filter(b => b.ledger.remaining > 0 && b.ownerRunning && merge(b).isDefined)
      .filter(b => now - b.lastCloneNanos >= conf.cloneIntervalMillis * 1000000L)
      .map(b => (b, decide(b, b.activeWorkers)))
      .filter(_._2.cloneNow)
      .toSeq
      .sortBy(-_._2.remainingSeconds)
    for ((bag, _) <- due) {
      bag.lastCloneNanos = now
      val signals = bag.activeWorkers
      var started = 0
      while (
        started < signals && idle > 0 && decide(bag, bag.activeWorkers).cloneNow && launchClone(bag)
      ) {
        started += 1
        idle -= 1
      }
    }
  }

  /**
   * The first time a bag is refused a clone Eq. 4.1 alone would have started, because the merge it adds outweighs
   * it: counted (once a bag, not once a tick) and said with the ratio its workers reported, so a user who sees no
   * clone on a skewed aggregation can tell why.
   */
  private def noteRefusedForMerge(bag: Bag, d: ClonePolicy.Decision, now: Long): Unit = {
    bag.refusalLogged = true
    metrics.clonesRefusedForMerge.increment()
    BagCoordinator.log.info(
      f"${bag.key}: no clone though ${d.remainingSeconds}%.1f s remain: its merge would add " +
        f"${d.mergeSeconds}%.1f s (${bag.mergeLoad(now).get.keysPerRecord}%.3f distinct keys per record read, " +
        f"clone.mergeCost ${conf.mergeCost}); Eq. 4.1 alone would clone"
    )
  }

  private def seedStatically(bag: Bag): Unit = {
    if (conf.mode == HurricaneConf.Off || bag.totalBytes < conf.staticThresholdBytes) return
    val sizes = launcher.partitionBytes(bag.key.shuffleId).getOrElse(return)
    if (sizes.isEmpty) return
    val median = math.max(1L, sizes.sorted.apply(sizes.length / 2))
    if (bag.totalBytes <= conf.staticSkewFactor * median) return
    // As many workers as the partition holds medians, within the cap: each then has about a median's work.
    val workers = math.min(
      conf.clonePolicy(slots.slots).maxWorkers.toLong,
      (bag.totalBytes + median - 1) / median
    )
    // Sizes say nothing of keys: a keyed bag's seeds wait for its first report, and start only while the merge
    // they add still pays (the next tick after the report).
    if (bag.keyed && conf.mergeCost > 0) bag.pendingSeeds = workers.toInt - 1
    else (1 until workers.toInt).foreach { _ => launchClone(bag); metrics.clonesSeeded.increment() }
  }

  private def launchClone(bag: Bag): Boolean = {
    val worker = bag.ledger.addWorker()
    val key = bag.key
    launcher.launch(key, worker, ok => cloneEnded(key, worker, ok)) match {
      case Some((rddId, cancel)) =>
        bag.clones(worker) = new Bag.Clone(rddId, cancel)
        metrics.clonesStarted.increment()
        true
      case None =>
        bag.ledger.adopt(worker) // an empty, sealed slot that nobody waits for
        false
    }
  }

  /** Open bags (tests and the metrics gauge). */
  def openBags: Int = synchronized(bags.size)
}

object BagCoordinator {
  val MaxMaps: Int = 1 << 22

  /**
   * The plan's ranges stretched to cover every map index: the first starts at 0 and the last reaches
   * `Int.MaxValue` (Spark's "to the last map"), so no map output is ever outside the bag, whatever the sizes said.
   */
  def coverAllMaps(plan: IndexedSeq[MapRange]): IndexedSeq[MapRange] =
    if (plan.isEmpty) IndexedSeq(MapRange(0, Int.MaxValue, 0))
    else {
      val first = plan.head.copy(startMap = 0)
      val stretched = plan.updated(0, first)
      stretched.updated(stretched.size - 1, stretched.last.copy(endMap = Int.MaxValue))
    }

  final class Metrics {
    val bagsOpened = new LongAdder
    val chunksGranted = new LongAdder
    val chunksReplayed = new LongAdder
    val clonesStarted = new LongAdder
    val clonesDone = new LongAdder
    val clonesSeeded = new LongAdder
    val clonesGivenUp = new LongAdder

    /** Bags refused a clone Eq. 4.1 alone would have started, because the merge it adds outweighed it. */
    val clonesRefusedForMerge = new LongAdder
  }

  private val log = org.slf4j.LoggerFactory.getLogger(classOf[BagCoordinator])
}
