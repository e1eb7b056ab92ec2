package org.apache.spark.shuffle.levee

import java.util.concurrent.ConcurrentHashMap

import scala.collection.mutable

import dev.levee.hurricane.TaskCounters
import dev.levee.hurricane.core.MapRange
import dev.levee.hurricane.executor.{BagWorker, CoordinatorClient}
import dev.levee.hurricane.protocol._
import org.apache.spark.{InterruptibleIterator, SparkEnv, TaskContext}
import org.apache.spark.shuffle.{BaseShuffleHandle, ShuffleReader}
import org.apache.spark.storage.RDDBlockId

/**
 * The owner's read of one reduce partition of an aggregating or ordered dependency, as a [[ShuffleReader]]: the
 * bag read of [[BagRead]] with the dependency's [[MergeShape]].
 */
private[levee] final class HurricaneShuffleReader[K, C](
    handle: BaseShuffleHandle[K, _, C],
    partition: Int,
    context: TaskContext,
    shape: MergeShape[K, C],
    readRange: MapRange => Iterator[Product2[K, C]],
    blockSizes: () => Array[Long]
) extends ShuffleReader[K, C] {

  override def read(): Iterator[Product2[K, C]] =
    new BagRead(handle.shuffleId, partition, context, shape, readRange, blockSizes).read()
}

/**
 * The owner's read of one bag: its chunks come late-bound from the driver's bag, a window at a time; when its own
 * log is drained it takes each clone's cached partial (or, when a partial is gone or will not come, the clone's
 * chunks themselves) and combines everything by the bag's [[BagShape]].
 */
private[levee] final class BagRead[K, C, Out](
    shuffleId: Int,
    partition: Int,
    context: TaskContext,
    shape: BagShape[K, C, Out],
    readRange: MapRange => Iterator[Product2[K, C]],
    blockSizes: () => Array[Long]
) {

  private lazy val counters = TaskCounters.of(context)

  def read(): Iterator[Out] = {
    HurricaneShuffleManager.bagReadStarted()
    val bag = BagKey(
      context.stageId(),
      context.stageAttemptNumber(),
      context.partitionId(),
      shuffleId,
      partition,
      HurricaneShuffleReader.occurrence(context, shuffleId, partition)
    )
    CoordinatorClient.ask(Open(bag, blockSizes(), shape.mergesByKey)) match {
      case Opened(_) =>
      case other     => throw new IllegalStateException(s"$bag: unexpected reply $other to open")
    }
    val keys = new KeyReport(shape)
    val worker = new BagWorker(
      bag,
      0,
      context.taskAttemptId(),
      () => context.killTaskIfInterrupted(),
      n => counters.add(TaskCounters.Chunks, n),
      () => keys.load
    )
    val first = worker.next()
    val result = first match {
      case Some(g) if g.whole && BagWorker.runs(g.ranges).size == 1 =>
        // The whole partition in one read and no clone can exist.
        shape.whole(partition, readRange(BagWorker.runs(g.ranges).head), context)
      case _ =>
        val reads = worker.runs(first).map(readRange)
        val own = if (shape.readsRaw) BagWorker.oneAhead(reads) else reads
        shape.countingInto(keys).output(partition, own, clonePartials(bag), context)
    }
    new InterruptibleIterator[Out](context, result)
  }

  /** Once the owner's own chunks are read: every clone's partial, or its chunks when the partial is not to be had. */
  private def clonePartials(bag: BagKey): Iterator[Iterator[Out]] = {
    val states = counters.timed(TaskCounters.OwnerWaitMs)(settledClones(bag))
    counters.span(
      TaskCounters.MergeMs,
      states.iterator.flatMap {
        case CloneDone(w, rddId) =>
          SparkEnv.get.blockManager.get[Any](RDDBlockId(rddId, 0)) match {
            case Some(block) =>
              counters.add(TaskCounters.ClonesMerged, 1)
              Iterator(block.data.asInstanceOf[Iterator[Out]])
            case None =>
              adopted(bag, w) // the partial's executor is gone: replay the clone's chunks here
          }
        case CloneGivenUp(w) => adopted(bag, w)
        case other => throw new IllegalStateException(s"$bag: clone still unsettled: $other")
      }
    )
  }

  /** Clone states once none is running: a running clone finishes its last window and caches its partial. */
  private def settledClones(bag: BagKey): IndexedSeq[CloneState] = {
    var pause = 1L
    while (true) {
      context.killTaskIfInterrupted()
      CoordinatorClient.ask(CloneStates(bag)) match {
        case Clones(states) if !states.exists(_.isInstanceOf[CloneRunning]) => return states
        case Clones(_)                                                      =>
          Thread.sleep(pause)
          pause = math.min(20L, pause * 2)
        case UnknownBag => throw BagWorker.gone(bag)
        case other      =>
          throw new IllegalStateException(s"$bag: unexpected reply $other to clone states")
      }
    }
    IndexedSeq.empty
  }

  /** A clone's chunks read here, as that clone would have: its partial from its own streams. */
  private def adopted(bag: BagKey, worker: Int): Iterator[Iterator[Out]] =
    CoordinatorClient.ask(Adopt(bag, worker)) match {
      case Adopted(ranges) =>
        counters.add(TaskCounters.Chunks, ranges.size)
        counters.add(TaskCounters.ChunksAdopted, ranges.size)
        Iterator.single(
          shape.partial(partition, BagWorker.runs(ranges).iterator.map(readRange), context)
        )
      case UnknownBag => throw BagWorker.gone(bag)
      case other      => throw new IllegalStateException(s"$bag: unexpected reply $other to adopt")
    }
}

private[levee] object HurricaneShuffleReader {
  private val reads = new ConcurrentHashMap[Long, mutable.Map[(Int, Int), Int]]()

  /**
   * How many reads of (shuffle, partition) this task attempt made before this one. Every attempt of a task makes
   * its reads in the same order, so the count names the same bag in each. The first read of a task also tells the
   * coordinator when the attempt ends, so that a retry need not wait for the listener bus to take over its log.
   */
  def occurrence(context: TaskContext, shuffleId: Int, partition: Int): Int = {
    val attempt = context.taskAttemptId()
    val counts = reads.computeIfAbsent(
      attempt,
      _ => {
        context.addTaskCompletionListener[Unit] { _ =>
          reads.remove(attempt)
          CoordinatorClient.tell(AttemptEnded(attempt))
        }
        mutable.Map.empty[(Int, Int), Int]
      }
    )
    counts.synchronized {
      val n = counts.getOrElse((shuffleId, partition), 0)
      counts((shuffleId, partition)) = n + 1
      n
    }
  }

}
