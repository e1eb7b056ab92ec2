package org.apache.spark.shuffle.levee

import dev.levee.leaky.mapside.MapSideGrouper
import org.apache.spark.TaskContext
import org.apache.spark.scheduler.MapStatus
import org.apache.spark.shuffle.ShuffleWriter

/**
 * The delegate's writer, fed a map task's records grouped into packs. Whatever the delegate does with records
 * (bypass files, sort, spill, checksums, push) it does with the packs.
 */
private[levee] final class GroupingShuffleWriter[K, V](
    delegate: ShuffleWriter[K, Array[Byte]],
    grouper: MapSideGrouper[K],
    context: TaskContext
) extends ShuffleWriter[K, V] {

  context.addTaskCompletionListener[Unit](_ => grouper.release())

  override def write(records: Iterator[Product2[K, V]]): Unit = {
    delegate.write(grouper.group(records))
    grouper.release()
    SparkInternals.recordPeakMemory(context, grouper.peakMemoryBytes)
  }

  override def stop(success: Boolean): Option[MapStatus] = delegate.stop(success)

  override def getPartitionLengths(): Array[Long] = delegate.getPartitionLengths()
}
