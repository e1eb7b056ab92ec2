package dev.levee.leaky.aggregate

import dev.levee.leaky.LeakyConf
import dev.levee.leaky.table.{GroupBuilder, LeakyHashTable}
import dev.levee.leaky.value.ValueDecoder
import org.apache.spark.{SparkEnv, TaskContext}
import org.apache.spark.serializer.Serializer
import org.apache.spark.shuffle.levee.SparkInternals

/**
 * Runs a leaky table inside a Spark task: memory from the task's TaskMemoryManager, spills in
 * the executor's local dirs, memory returned at task end even if the output is not drained,
 * and peak memory / spill sizes reported in the task's metrics (so they reach the UI and the
 * event log; Spark itself records the task's GC time).
 */
object LeakyTask {

  /**
   * Groups `inputs` (input i's values are tagged i) and emits each key with what `newBuilder`
   * makes of its values. The inputs are read one after the other: no per-record wrapper object.
   */
  def group[K, R](
      context: TaskContext,
      serializer: Serializer,
      conf: LeakyConf,
      joinLayout: Boolean,
      inputs: Seq[Iterator[Product2[K, Any]]],
      newBuilder: ValueDecoder => GroupBuilder[R]
  ): Iterator[(K, R)] = {
    // One instance per task: Kryo instances carry a buffer that is too costly to make per group.
    val instance = serializer.newInstance()
    val table = new LeakyHashTable[K](
      SparkInternals.taskMemoryManager(context),
      instance,
      conf,
      joinLayout,
      SparkInternals.spillStorage(),
      SparkInternals.spillTriggers(SparkEnv.get.conf)
    )
    context.addTaskCompletionListener[Unit](_ => table.free())
    var tag = 0
    inputs.foreach { input =>
      while (input.hasNext) {
        val r = input.next()
        table.insert(r._1, tag, r._2)
      }
      tag += 1
    }
    SparkInternals.recordTableMetrics(
      context,
      table.peakMemoryBytes,
      table.memoryBytesSpilled,
      table.diskBytesSpilled
    )
    val decoder = new ValueDecoder(instance)
    table.groups(() => newBuilder(decoder))
  }

  /** Which layout an operator gets under `spark.levee.leaky.layout`. */
  def useJoinLayout(conf: LeakyConf, joinLike: Boolean): Boolean = conf.layout match {
    case LeakyConf.JoinLayout  => true
    case LeakyConf.GroupLayout => false
    case LeakyConf.AutoLayout  => joinLike
  }
}
