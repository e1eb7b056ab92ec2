package dev.levee.leaky.memory

import java.lang.management.{ManagementFactory, MemoryType}
import java.util.concurrent.atomic.AtomicLong
import javax.management.{Notification, NotificationEmitter, NotificationListener}
import javax.management.openmbean.CompositeData

import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import com.sun.management.GarbageCollectionNotificationInfo

/**
 * A ceiling from what the collector finds live: after each full collection, the live bytes that are not the tables'
 * are Spark's own (its block manager, shuffle fetch buffers, the task's output, user objects); the tables may then
 * fill the old generation up to `maxLiveFraction` of its capacity beside them.
 *
 * Why: a fixed share of the heap is either too much on a small executor, where Spark's own live set is a large and
 * fixed part of the heap (tens of MB), or needlessly little on a big one. When the tables and Spark together nearly
 * fill the old generation every young collection turns into a full one; the measured cure on a 64 MB executor was a
 * table half the size, spilling more and collecting less. A full collection is the one moment the live set is known
 * exactly, and one of them comes as soon as the old generation fills, which is exactly when this ceiling matters.
 * Until the first one the ceiling is unlimited (the fixed heap share still applies).
 *
 * `heldByTables` is what the tables held when the collection ended: grants, so it may exceed the bytes really
 * allocated by the unused part of the last doubling. That errs towards a lower estimate of Spark's share and so a
 * higher ceiling, by at most one doubling; the next full collection corrects it.
 */
final class LiveHeapCeiling private (
    maxLiveFraction: Double,
    oldGenCapacity: Long,
    heldByTables: () => Long
) extends TableCeiling {
  private val othersLive = new AtomicLong(-1)

  override def bytes: Long = {
    val others = othersLive.get
    if (others < 0) Long.MaxValue
    else math.max(0L, (oldGenCapacity * maxLiveFraction).toLong - others)
  }

  /** Records a full collection that left `liveBytes` in the heap. */
  def afterFullCollection(liveBytes: Long): Unit =
    othersLive.set(math.max(0L, liveBytes - heldByTables()))

  /** Bytes found live outside the tables after the latest full collection; -1 before the first. */
  def othersLiveBytes: Long = othersLive.get
}

object LiveHeapCeiling {

  /** A ceiling fed by nothing but [[LiveHeapCeiling.afterFullCollection]]: for tests. */
  def manual(
      maxLiveFraction: Double,
      oldGenCapacity: Long,
      heldByTables: () => Long
  ): LiveHeapCeiling =
    new LiveHeapCeiling(maxLiveFraction, oldGenCapacity, heldByTables)

  /**
   * A ceiling fed by this JVM's garbage-collection notifications. Where the JVM offers none (not HotSpot), it stays
   * unlimited and the fixed heap share alone applies.
   */
  def ofThisJvm(maxLiveFraction: Double, heldByTables: () => Long): TableCeiling = {
    val heapPools =
      ManagementFactory.getMemoryPoolMXBeans.asScala.filter(_.getType == MemoryType.HEAP)
    // ParallelGC's "PS Old Gen", Serial's "Tenured Gen", G1's "G1 Old Gen" (whose capacity is the whole heap).
    val oldGen = heapPools.find(p => p.getName.contains("Old Gen") || p.getName.contains("Tenured"))
    val capacity =
      oldGen.map(_.getUsage.getMax).filter(_ > 0).getOrElse(Runtime.getRuntime.maxMemory)
    val heapPoolNames = heapPools.map(_.getName).toSet
    val ceiling = new LiveHeapCeiling(maxLiveFraction, capacity, heldByTables)
    val listener = new NotificationListener {
      override def handleNotification(n: Notification, handback: Any): Unit =
        if (n.getType == GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION) {
          val info =
            GarbageCollectionNotificationInfo.from(n.getUserData.asInstanceOf[CompositeData])
          if (info.getGcAction.contains("major")) {
            val after = info.getGcInfo.getMemoryUsageAfterGc.asScala
            ceiling.afterFullCollection(after.collect {
              case (pool, u) if heapPoolNames(pool) => u.getUsed
            }.sum)
          }
        }
    }
    try {
      ManagementFactory.getGarbageCollectorMXBeans.asScala.foreach {
        case emitter: NotificationEmitter => emitter.addNotificationListener(listener, null, null)
        case _                            =>
      }
      ceiling
    } catch { case NonFatal(_) | _: LinkageError => TableCeiling.Unlimited }
  }
}
