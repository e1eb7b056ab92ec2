package dev.levee.bench.spark.hurricane

import java.util.concurrent.locks.LockSupport

import scala.util.Random

import dev.levee.hurricane.api.Hurricane._
import org.apache.spark.{HashPartitioner, SparkContext}
import org.apache.spark.rdd.RDD
import org.apache.spark.sql.SparkSession
import org.apache.spark.sql.functions.{broadcast, col, sum, udf}

/**
 * A skewed equi-join: a large probe relation (key, v) whose 64 keys are Zipf-distributed (one rank each, as
 * ClickLog's regions, so one key per reduce partition and the hottest holds the share f of the probe rows) joined
 * with a small build relation holding `rowsPerKey` rows (key, w) for every key. Every joined pair is consumed into
 * the same order-free answer, sum((v · 31 + w) mod 65521), which each arm must return.
 *
 * `parkNanosPerPair` > 0 adds emulated work per joined pair (a park of 64 pairs' worth on the pairs where
 * (v xor w) mod 64 = 0, the same pairs in every arm, so it costs no CPU); the work then sits where each arm
 * consumes pairs: the owner task of the stock join, every worker of `hurricaneJoinWithMerge`, each split task of
 * the Dataset join.
 */
final case class SkewedJoin(
    s: Double,
    records: Long,
    maps: Int,
    rowsPerKey: Int,
    parkNanosPerPair: Long
) {
  val keys = 64

  private val ranks = ZipfRanks(keys, s)

  def hottestShare: Double = ranks.hottestShare

  private def part = new HashPartitioner(keys)

  def probe(sc: SparkContext): RDD[(Int, Int)] = {
    val self = this
    sc.parallelize(0 until maps, maps).flatMap(slice => self.probeSlice(slice))
  }

  def build(sc: SparkContext): RDD[(Int, Int)] = {
    val perKey = rowsPerKey
    sc.parallelize(0 until keys, 4)
      .flatMap(k => (0 until perKey).map(i => (k, (k * 7919 + i * 104729) & 0xffff)))
  }

  /** The stock RDD join, every pair consumed in its reduce task. */
  def rddJoin(sc: SparkContext): Long = {
    val park = parkNanosPerPair
    probe(sc)
      .join(build(sc), part)
      .map { case (_, (v, w)) => SkewedJoin.consume(v, w, park) }
      .fold(0L)(_ + _)
  }

  /** `hurricaneJoin`: the pairs of clones come back to the owner task, which consumes them all. */
  def hurricaneJoin(sc: SparkContext): Long = {
    val park = parkNanosPerPair
    probe(sc)
      .hurricaneJoin(build(sc), part)
      .map { case (_, (v, w)) => SkewedJoin.consume(v, w, park) }
      .fold(0L)(_ + _)
  }

  /** `hurricaneJoinWithMerge`: every worker consumes its own pairs; the owner adds up the workers' sums. */
  def hurricaneJoinWithMerge(sc: SparkContext): Long = {
    val park = parkNanosPerPair
    probe(sc)
      .hurricaneJoinWithMerge(build(sc), part) { pairs =>
        Iterator.single(pairs.foldLeft(0L) { case (acc, (_, (v, w))) =>
          acc + SkewedJoin.consume(v, w, park)
        })
      }(sums => Iterator.single(sums.flatten.sum))
      .fold(0L)(_ + _)
  }

  /**
   * The same join as Datasets, planned by Spark SQL with `settings` (the bench's AQE skew-join or broadcast
   * settings); a global sum needs no partitioning on the key after the join, so AQE may split a skewed partition.
   */
  def dataset(sc: SparkContext, settings: Map[String, String], broadcastHint: Boolean): Long = {
    val spark = SparkSession.builder().config(sc.getConf).getOrCreate()
    settings.foreach { case (k, v) => spark.conf.set(k, v) }
    import spark.implicits._
    val park = parkNanosPerPair
    val consume = udf((v: Int, w: Int) => SkewedJoin.consume(v, w, park))
    val l = probe(sc).toDF("k", "v")
    val r = if (broadcastHint) broadcast(build(sc).toDF("k", "w")) else build(sc).toDF("k", "w")
    l.join(r, "k").agg(sum(consume(col("v"), col("w")))).as[Long].head()
  }

  private def probeSlice(slice: Int): Iterator[(Int, Int)] = {
    val random = new Random(7000L * slice + (s * 100).toLong)
    Iterator.fill(ranks.sliceSize(records, maps, slice))(
      (ranks.draw(random), random.nextInt(1 << 20))
    )
  }
}

object SkewedJoin {

  /** One joined pair's share of the answer, after its emulated work. */
  def consume(v: Int, w: Int, parkNanos: Long): Long = {
    if (parkNanos > 0 && ((v ^ w) & 63) == 0) LockSupport.parkNanos(parkNanos * 64)
    ((v * 31 + w) % 65521).toLong
  }

  /**
   * The Dataset arms' session settings. `dataset-aqe`: adaptive execution with its skew join, its thresholds
   * lowered to this data's size (a partition is skewed above 5× the median and `skewThreshold` bytes, and is split
   * into pieces of about `splitBytes`), broadcasts off so the join has a reduce side to split; `dataset-broadcast`:
   * what an expert does with a build side this small, a broadcast hash join (a `broadcast` hint: a relation made
   * from an RDD has no size statistics) with no shuffle of the probe side.
   */
  def aqeSettings(partitions: Int, skewThreshold: Long, splitBytes: Long): Map[String, String] =
    Map(
      "spark.sql.shuffle.partitions" -> partitions.toString,
      "spark.sql.adaptive.enabled" -> "true",
      "spark.sql.adaptive.skewJoin.enabled" -> "true",
      "spark.sql.adaptive.skewJoin.skewedPartitionFactor" -> "5",
      "spark.sql.adaptive.skewJoin.skewedPartitionThresholdInBytes" -> skewThreshold.toString,
      "spark.sql.adaptive.advisoryPartitionSizeInBytes" -> splitBytes.toString,
      "spark.sql.autoBroadcastJoinThreshold" -> "-1"
    )

  def broadcastSettings(partitions: Int): Map[String, String] = Map(
    "spark.sql.shuffle.partitions" -> partitions.toString,
    "spark.sql.adaptive.enabled" -> "true"
  )
}
