package org.apache.spark.shuffle.levee

import java.util.{Map => JMap}

import scala.reflect.ClassTag

import org.apache.spark.{Partition, ShuffleDependency, SparkContext, SparkEnv, TaskContext}
import org.apache.spark.api.plugin.{DriverPlugin, ExecutorPlugin, PluginContext, SparkPlugin}
import org.apache.spark.rdd.RDD

import dev.levee.hurricane.core.MapRange

/** The one partition of a [[MapRangeProbeRDD]]. */
final case class ProbePartition(index: Int) extends Partition

/**
 * A one-partition RDD that reads reduce partition `partition` of an existing shuffle, but only the blocks written
 * by map tasks `[startMap, endMap)`: the shape of a Hurricane clone (one chunk range of one partition). It declares
 * the shuffle's own dependency, so the scheduler finds the finished map stage by shuffle id.
 */
class MapRangeProbeRDD[K: ClassTag, V: ClassTag](
    sc: SparkContext,
    dep: ShuffleDependency[K, V, V],
    partition: Int,
    startMap: Int,
    endMap: Int,
    preferred: Seq[String]
) extends RDD[(K, V)](sc, Seq(dep)) {
  override protected def getPartitions: Array[Partition] = Array(ProbePartition(0))
  override protected def getPreferredLocations(split: Partition): Seq[String] = preferred
  override def compute(split: Partition, context: TaskContext): Iterator[(K, V)] =
    MapRangeProbeRDD.read(dep, partition, startMap, endMap, context)
}

object MapRangeProbeRDD {
  def read[K, V](
      dep: ShuffleDependency[K, V, V],
      partition: Int,
      startMap: Int,
      endMap: Int,
      context: TaskContext
  ): Iterator[(K, V)] = {
    val metrics = context.taskMetrics().createTempShuffleReadMetrics()
    HurricaneShuffleManager
      .readFrom(
        SparkEnv.get.shuffleManager,
        dep,
        MapRange(startMap, endMap, 0),
        partition,
        context,
        metrics,
        raw = None
      )
      .asInstanceOf[Iterator[(K, V)]]
  }
}

/** Echoes every message: the round trip a bag grant costs, through the public plugin API only. */
class EchoPlugin extends SparkPlugin {
  override def driverPlugin(): DriverPlugin = new DriverPlugin {
    override def receive(message: AnyRef): AnyRef = message
  }
  override def executorPlugin(): ExecutorPlugin = new ExecutorPlugin {
    override def init(ctx: PluginContext, extraConf: JMap[String, String]): Unit =
      EchoPlugin.context = ctx
  }
}

object EchoPlugin {
  @volatile var context: PluginContext = _
}
