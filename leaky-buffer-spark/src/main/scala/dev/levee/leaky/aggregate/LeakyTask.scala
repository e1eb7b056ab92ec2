package dev.levee.leaky.aggregate

import dev.levee.leaky.LeakyConf
import dev.levee.leaky.table.{GroupBuilder, LeakyHashTable}
import dev.levee.leaky.value.ValueDecoder
import org.apache.spark.{SparkEnv, TaskContext}
import org.apache.spark.serializer.Serializer
import org.apache.spark.shuffle.levee.SparkInternals

/**
 * A leaky table inside a Spark task: memory from the task's TaskMemoryManager, spills in the executor's local dirs,
 * memory returned at task end even if the output is not drained, and peak memory / spill sizes reported in the
 * task's metrics when it emits (so they reach the UI and the event log; Spark itself records the task's GC time).
 */
final class TaskTable[K](
    context: TaskContext,
    serializer: Serializer,
    conf: LeakyConf,
    joinLayout: Boolean
) {
  // One instance per task: Kryo instances carry a buffer that is too costly to make per group.
  private val instance = serializer.newInstance()
  private val table = new LeakyHashTable[K](
    SparkInternals.taskMemoryManager(context),
    instance,
    conf,
    joinLayout,
    SparkInternals.spillStorage(),
    SparkInternals.spillTriggers(SparkEnv.get.conf)
  )
  context.addTaskCompletionListener[Unit](_ => table.free())

  /** Adds every record of `input`, its values tagged `tag`; no per-record wrapper object. */
  def insertAll(input: Iterator[Product2[K, Any]], tag: Int): Unit =
    while (input.hasNext) {
      val r = input.next()
      table.insert(r._1, tag, r._2)
    }

  /** Adds every value of every pack of `input` (what a grouping map task wrote, see MapSideGrouper). */
  def insertPacks(input: Iterator[Product2[K, Array[Byte]]]): Unit =
    while (input.hasNext) {
      val r = input.next()
      table.insertPack(r._1, r._2)
    }

  def insert(key: K, tag: Int, value: Any): Unit = table.insert(key, tag, value)

  /** Emits each key with what `newBuilder` makes of its values; the table takes no more records. */
  def emit[R](newBuilder: ValueDecoder => GroupBuilder[R]): Iterator[(K, R)] = {
    SparkInternals.recordTableMetrics(
      context,
      table.peakMemoryBytes,
      table.memoryBytesSpilled,
      table.diskBytesSpilled
    )
    val decoder = new ValueDecoder(instance)
    table.groups(() => newBuilder(decoder))
  }
}

object LeakyTask {

  /**
   * Groups `inputs` (input i's values are tagged i) and emits each key with what `newBuilder`
   * makes of its values. The inputs are read one after the other.
   */
  def group[K, R](
      context: TaskContext,
      serializer: Serializer,
      conf: LeakyConf,
      joinLayout: Boolean,
      inputs: Seq[Iterator[Product2[K, Any]]],
      newBuilder: ValueDecoder => GroupBuilder[R]
  ): Iterator[(K, R)] = {
    val table = new TaskTable[K](context, serializer, conf, joinLayout)
    inputs.zipWithIndex.foreach { case (input, tag) => table.insertAll(input, tag) }
    table.emit(newBuilder)
  }

  /** Which layout an operator gets under `spark.levee.leaky.layout`. */
  def useJoinLayout(conf: LeakyConf, joinLike: Boolean): Boolean = conf.layout match {
    case LeakyConf.JoinLayout  => true
    case LeakyConf.GroupLayout => false
    case LeakyConf.AutoLayout  => joinLike
  }
}
