package org.apache.spark.shuffle.levee

import java.util.concurrent.ConcurrentLinkedQueue

import scala.jdk.CollectionConverters._

import dev.levee.hurricane.HurricanePlugin
import org.apache.spark.{HashPartitioner, SparkConf}
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}

/**
 * Hurricane on a real local-cluster (two executor JVMs, one slot each): every merge shape on Zipf data equals the
 * answer computed in the driver without Spark, a skewed partition really gets clones whose partials are merged, a
 * uniform one gets none, and the shuffle bytes read by owners and clones together equal a stock read's.
 *
 * Clone decisions are scaled down for small data ([[HurricaneTestConf]]). The reduce work is emulated (a 1 ms park every 40 records), so the test
 * exercises scheduling and merging, not this machine's CPU.
 */
class HurricaneSuite extends LocalClusterSuite {
  override protected def extraConf(conf: SparkConf): SparkConf =
    HurricaneTestConf.scaledDown(conf)

  private val partitions = 4
  private val maps = 8
  private val ended = new ConcurrentLinkedQueue[SparkListenerTaskEnd]()

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(end: SparkListenerTaskEnd): Unit = ended.add(end)
    })
  }

  private def metrics = HurricanePlugin.coordinator.get.metrics

  private def records(z: ZipfRecords): RDD[(Int, Int)] =
    sc.parallelize(0 until z.slices, z.slices).flatMap(z.slice)

  /** The action's shuffle bytes read, over every task it ran (clone jobs included), and its result. */
  private def measured[T](action: => T): (T, Long) = {
    sc.listenerBus.waitUntilEmpty()
    ended.clear()
    val result = action
    sc.listenerBus.waitUntilEmpty()
    (result, ended.asScala.map(_.taskMetrics.shuffleReadMetrics.totalBytesRead).sum)
  }

  private def stock[T](action: => T): T = {
    sc.setLocalProperty("spark.levee.hurricane.enabled", "false")
    try action
    finally sc.setLocalProperty("spark.levee.hurricane.enabled", null)
  }

  private val part = new HashPartitioner(partitions)

  test("every merge shape equals the driver's answer on Zipf keys at s = 0, 1 and 3") {
    for (s <- Seq(0.0, 1.0, 3.0)) {
      val z = ZipfRecords(s, keys = 300, slices = maps, perSlice = 3000)
      val data = z.all
      val rdd = records(z)
      val byKey = data.groupMap(_._1)(_._2)
      withClue(s"s=$s reduceByKey: ")(
        assert(rdd.reduceByKey(part, _ + _).collect().toMap == byKey.view.mapValues(_.sum).toMap)
      )
      withClue(s"s=$s foldByKey: ")(
        assert(rdd.foldByKey(0, part)(_ + _).collect().toMap == byKey.view.mapValues(_.sum).toMap)
      )
      withClue(s"s=$s groupByKey: ") {
        assert(
          rdd.groupByKey(part).mapValues(_.toVector.sorted).collect().toMap == byKey.view
            .mapValues(_.sorted)
            .toMap
        )
      }
      withClue(s"s=$s aggregateByKey: ") {
        val residues =
          rdd.aggregateByKey(Set.empty[Int], part)((acc, v) => acc + v % 7, _ ++ _).collect().toMap
        assert(residues == byKey.view.mapValues(_.map(_ % 7).toSet).toMap)
      }
      withClue(s"s=$s combineByKey without map-side combine: ") {
        val counts = rdd
          .combineByKey[Long](
            (_: Int) => 1L,
            (c: Long, _: Int) => c + 1,
            (a: Long, b: Long) => a + b,
            part,
            mapSideCombine = false
          )
          .collect()
          .toMap
        assert(counts == byKey.view.mapValues(_.size.toLong).toMap)
      }
      withClue(s"s=$s countByKey: ")(
        assert(rdd.countByKey() == byKey.view.mapValues(_.size.toLong).toMap)
      )
      withClue(s"s=$s distinct: ")(
        assert(rdd.map(_._1).distinct(partitions).collect().sorted.toSeq == byKey.keys.toSeq.sorted)
      )
      withClue(s"s=$s sortByKey: ") {
        val sorted = rdd.sortByKey(numPartitions = partitions).collect().toSeq
        assert(sorted.map(_._1) == data.map(_._1).sorted)
        assert(sorted.sorted == data.sorted)
      }
      withClue(s"s=$s a plain partitionBy passes through: ") {
        assert(rdd.partitionBy(part).collect().sorted.toSeq == data.sorted)
      }
    }
    assert(metrics.bagsOpened.sum() > 0)
  }

  /** A combine whose reduce side costs about 25 µs per record (parked, not spun), without map-side combine. */
  private def slowCounts(rdd: RDD[(Int, Int)]): Map[Int, Long] =
    rdd
      .combineByKey[Long](
        (_: Int) => 1L,
        (c: Long, v: Int) => { if (v % 40 == 0) Thread.sleep(1); c + 1 },
        (a: Long, b: Long) => a + b,
        part,
        mapSideCombine = false
      )
      .collect()
      .toMap

  test("a skewed partition gets clones whose partials are merged; bytes read equal stock's") {
    val z = ZipfRecords(3.0, keys = 300, slices = maps, perSlice = 20000)
    val want = z.all.groupMapReduce(_._1)(_ => 1L)(_ + _)
    val rdd = records(z)
    val (stockCounts, stockBytes) = measured(stock(slowCounts(rdd)))
    assert(stockCounts == want)
    val startedBefore = metrics.clonesStarted.sum()
    val doneBefore = metrics.clonesDone.sum()
    val (counts, bytes) = measured(slowCounts(rdd))
    assert(counts == want)
    println(
      s"[hurricane] skewed s=3: clones started ${metrics.clonesStarted.sum() - startedBefore}, merged " +
        s"${metrics.clonesDone.sum() - doneBefore}, given up ${metrics.clonesGivenUp.sum()}, chunks granted " +
        s"${metrics.chunksGranted.sum()}, replayed ${metrics.chunksReplayed.sum()}; shuffle bytes $bytes (stock $stockBytes)"
    )
    assert(metrics.clonesStarted.sum() > startedBefore, "no clone started for the hot partition")
    assert(metrics.clonesDone.sum() > doneBefore, "no clone's partial was merged")
    assert(
      bytes == stockBytes,
      s"owner and clones read $bytes shuffle bytes, stock read $stockBytes"
    )
  }

  test("a uniform job starts no clone") {
    val z = ZipfRecords(0.0, keys = 3000, slices = maps, perSlice = 8000)
    val want = z.all.groupMapReduce(_._1)(_ => 1L)(_ + _)
    val before = metrics.clonesStarted.sum()
    assert(slowCounts(records(z)) == want)
    assert(metrics.clonesStarted.sum() == before)
  }
}
