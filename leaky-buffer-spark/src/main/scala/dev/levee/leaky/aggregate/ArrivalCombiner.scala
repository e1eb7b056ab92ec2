package dev.levee.leaky.aggregate

import dev.levee.leaky.table.SpillTriggers
import org.apache.spark.TaskContext
import org.apache.spark.internal.Logging
import org.apache.spark.memory.{MemoryConsumer, MemoryMode}
import org.apache.spark.shuffle.levee.SparkInternals

/**
 * The transparent path of a map-side-combined aggregation whose combiners are collections (aggregateByKey into a set,
 * say): combiners are merged as they arrive in Spark's own map, exactly as without Levee, for as long as that is
 * cheap, and move into a leaky table, serialized, once the map holds more than Spark grants it or more than
 * `objectCapBytes` as objects. Later combiners go on arriving in a fresh map, which moves again when it fills; at the
 * end the table merges each key's moved combiners as it emits it.
 *
 * Why not the table from the first record: each arriving combiner has just been deserialized from the shuffle; the
 * table serializes it again and decodes it once more at emission, three passes where Spark makes one. The bench
 * measured that costing aggregateByKey with a set per key 1.6-1.8x of stock's time while nothing was short of memory.
 * The table pays for itself where the combiners would be many, large and long-lived objects, which is exactly when
 * this map outgrows its bound; what moves then is the map's merged combiners, fewer and smaller than what arrived.
 * The bound on objects is the leaky buffer's own (the paper's point: the collector's cost grows with what stays
 * live), on top of Spark's grant, which on a small heap lets objects fill most of the old generation.
 */
final class ArrivalCombiner[K, C](
    context: TaskContext,
    mergeCombiners: (C, C) => C,
    objectCapBytes: Long,
    initialThreshold: Long,
    triggers: SpillTriggers,
    newMap: () => CombinerMap[K, C],
    newTable: () => TaskTable[K]
) extends MemoryConsumer(SparkInternals.taskMemoryManager(context), MemoryMode.ON_HEAP)
    with Logging {

  private var inMemory = newMap()
  private var table: TaskTable[K] = _
  private var threshold = initialThreshold
  private var recordsInMap = 0L
  private var peakObjectBytes = 0L
  private var moves = 0
  context.addTaskCompletionListener[Unit](_ => releaseGrant())

  /** How many times the combiners moved into the table (0: the aggregation ran as stock's does). */
  def movesToTable: Int = moves

  def combine(records: Iterator[Product2[K, C]]): Iterator[(K, C)] = {
    var incoming: C = null.asInstanceOf[C]
    val update = (had: Boolean, old: C) => if (had) mergeCombiners(old, incoming) else incoming
    while (records.hasNext) {
      val r = records.next()
      incoming = r._2
      inMemory.changeValue(r._1, update)
      recordsInMap += 1
      // Every record, not every 32nd as Spark does: a few combiners of hundreds of MB are this path's case, and the
      // map's estimate is a constant-time extrapolation between its samples.
      maybeMove()
    }
    incoming = null.asInstanceOf[C]
    peakObjectBytes = math.max(peakObjectBytes, inMemory.estimateSize())
    SparkInternals.recordPeakMemory(context, peakObjectBytes)
    if (table == null) releasingAtEnd(inMemory.iterator)
    else {
      moveToTable()
      table.emit(values => new CombiningBuilder[C, C](values, identity, mergeCombiners))
    }
  }

  private def maybeMove(): Unit = {
    val size = inMemory.estimateSize()
    peakObjectBytes = math.max(peakObjectBytes, size)
    val move = triggers.due(recordsInMap, size) || size > objectCapBytes ||
      (size >= threshold && {
        // Spark's Spillable asks for twice what it holds; what it is refused is where stock would spill.
        threshold += acquireMemory(2 * size - threshold)
        size >= threshold
      })
    if (move) {
      if (moves == 0) {
        logInfo(
          s"Task ${context.taskAttemptId()}: combiners hold ~${size >> 20} MiB as objects (bound " +
            s"${objectCapBytes >> 20} MiB, granted ${threshold >> 20} MiB); moving them into a leaky table"
        )
      }
      moveToTable()
    }
  }

  private def moveToTable(): Unit = {
    if (table == null) table = newTable()
    val it = inMemory.iterator
    while (it.hasNext) {
      val (k, c) = it.next()
      table.insert(k, 0, c)
    }
    inMemory = newMap()
    recordsInMap = 0
    moves += 1
    releaseGrant()
  }

  private def releaseGrant(): Unit = {
    freeMemory(threshold - initialThreshold)
    threshold = initialThreshold
  }

  private def releasingAtEnd(it: Iterator[(K, C)]): Iterator[(K, C)] = new Iterator[(K, C)] {
    private var done = false
    override def hasNext: Boolean = it.hasNext || {
      if (!done) { done = true; inMemory = null; releaseGrant() }
      false
    }
    override def next(): (K, C) = it.next()
  }

  /** Combiners being merged in place cannot be written out from under the merge: Spark's grant only shrinks here. */
  override def spill(size: Long, trigger: MemoryConsumer): Long = 0L
}
