package org.apache.spark.shuffle.levee

import dev.levee.leaky.aggregate.CombinerMap
import dev.levee.leaky.spill.{SpillFile, SpillStorage}
import dev.levee.leaky.table.SpillTriggers
import org.apache.spark.{SparkConf, SparkEnv, TaskContext}
import org.apache.spark.internal.config
import org.apache.spark.memory.TaskMemoryManager
import org.apache.spark.util.collection.SizeTrackingAppendOnlyMap

/**
 * The few private[spark] members the leaky buffer needs, and nothing else. Logic stays in
 * dev.levee.leaky; this object only reaches across the package boundary.
 */
object SparkInternals {

  def taskMemoryManager(context: TaskContext): TaskMemoryManager = context.taskMemoryManager()

  /** Spills go where Spark's own do, with Spark's compression and encryption. */
  def spillStorage(): SpillStorage = new SpillStorage {
    private val env = SparkEnv.get
    override def create(): SpillFile = {
      val (blockId, file) = env.blockManager.diskBlockManager.createTempLocalBlock()
      val sm = env.serializerManager
      new SpillFile(file, out => sm.wrapStream(blockId, out), in => sm.wrapStream(blockId, in))
    }
  }

  /** Spark's forced-spill settings, which every Spillable collection of Spark honours. */
  def spillTriggers(conf: SparkConf): SpillTriggers = SpillTriggers(
    conf.get(config.SHUFFLE_SPILL_NUM_ELEMENTS_FORCE_SPILL_THRESHOLD).toLong,
    SparkLine.forcedSpillBytes(conf)
  )

  def recordTableMetrics(
      context: TaskContext,
      peakBytes: Long,
      memorySpilled: Long,
      diskSpilled: Long
  ): Unit = {
    val m = context.taskMetrics()
    m.incPeakExecutionMemory(peakBytes)
    m.incMemoryBytesSpilled(memorySpilled)
    m.incDiskBytesSpilled(diskSpilled)
  }

  /** Spark's own combining map (ExternalAppendOnlyMap's in-memory part). */
  def newCombinerMap[K, C](): CombinerMap[K, C] = new CombinerMap[K, C] {
    private val map = new SizeTrackingAppendOnlyMap[K, C]
    override def changeValue(key: K, update: (Boolean, C) => C): C = map.changeValue(key, update)
    override def estimateSize(): Long = map.estimateSize()
    override def iterator: Iterator[(K, C)] = map.iterator
  }

  def recordPeakMemory(context: TaskContext, peakBytes: Long): Unit =
    context.taskMetrics().incPeakExecutionMemory(peakBytes)
}
