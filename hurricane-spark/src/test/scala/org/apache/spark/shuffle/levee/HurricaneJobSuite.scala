package org.apache.spark.shuffle.levee

import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import dev.levee.hurricane.{HurricanePlugin, TaskCounters}
import org.apache.spark.HashPartitioner
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}

/**
 * A local-cluster suite that runs Hurricane jobs on Zipf records and reads what their tasks did: the task-end
 * events of the last measured action, Hurricane's counters in them, and the coordinator's metrics.
 */
abstract class HurricaneJobSuite extends LocalClusterSuite {
  protected val partitions = 4
  protected val maps = 8
  protected val ended = new ConcurrentLinkedQueue[SparkListenerTaskEnd]()

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(end: SparkListenerTaskEnd): Unit = ended.add(end)
    })
  }

  protected def metrics = HurricanePlugin.coordinator.get.metrics

  protected def records(z: ZipfRecords): RDD[(Int, Int)] =
    sc.parallelize(0 until z.slices, z.slices).flatMap(z.slice)

  /** The action's shuffle bytes read, over every task it ran (clone jobs included), and its result. */
  protected def measured[T](action: => T): (T, Long) = {
    sc.listenerBus.waitUntilEmpty()
    ended.clear()
    val result = action
    sc.listenerBus.waitUntilEmpty()
    (result, ended.asScala.map(_.taskMetrics.shuffleReadMetrics.totalBytesRead).sum)
  }

  /** A Hurricane counter summed over the last measured action's tasks, as their task-end events carry it. */
  protected def counted(counter: TaskCounters.Counter): Long =
    ended.asScala
      .flatMap(_.taskInfo.accumulables)
      .filter(_.name.contains(counter.name))
      .flatMap(_.update)
      .map(_.toString.toLong)
      .sum

  /** Whether any task of the last measured action reported `counter` (a zero value included). */
  protected def reported(counter: TaskCounters.Counter): Boolean =
    ended.asScala.exists(_.taskInfo.accumulables.exists(_.name.contains(counter.name)))

  protected def stock[T](action: => T): T = {
    sc.setLocalProperty("spark.levee.hurricane.enabled", "false")
    try action
    finally sc.setLocalProperty("spark.levee.hurricane.enabled", null)
  }

  protected val part = new HashPartitioner(partitions)

  /**
   * A wide aggregation: Zipf s = 3 records whose hot key's records get distinct keys that stay in partition 0 (a
   * multiple of the partition count hashes there), counted without a map-side combine (about 25 µs of parked reduce
   * work per record), so the hot partition's combine holds one entry per record; and the driver's answer.
   */
  protected def distinctKeysCombine(): (RDD[(Int, Long)], Map[Int, Long]) = {
    val z = ZipfRecords(3.0, keys = 300, slices = maps, perSlice = 20000)
    val n = partitions // a local, so the closures do not capture the suite
    val spread = records(z).map { case (k, v) => (if (k == 0) v * n else k, v) }
    val want = z.all
      .map { case (k, v) => (if (k == 0) v * n else k, v) }
      .groupMapReduce(_._1)(_ => 1L)(_ + _)
    val combined = spread.combineByKey[Long](
      (v: Int) => { if (v % 40 == 0) Thread.sleep(1); 1L },
      (c: Long, v: Int) => { if (v % 40 == 0) Thread.sleep(1); c + 1 },
      (a: Long, b: Long) => a + b,
      part,
      mapSideCombine = false
    )
    (combined, want)
  }
}
