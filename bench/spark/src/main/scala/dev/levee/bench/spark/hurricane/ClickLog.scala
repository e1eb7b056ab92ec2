package dev.levee.bench.spark.hurricane

import java.util.BitSet
import java.util.concurrent.locks.LockSupport

import scala.util.Random

import org.apache.spark.{HashPartitioner, Partitioner, SparkContext}

/**
 * The thesis's ClickLog, phase 2: clicks (region, client IP) with regions Zipf-distributed (64 regions, one rank
 * each, so the imbalance is 64^s as in the thesis), and per region the set of distinct IPs as a bitset built on the
 * reduce side (`combineByKey` without map-side combine: set a bit per click, merge by OR). One reduce partition per
 * region, so the hottest partition holds the share f = 1/H(64, s) of the work.
 *
 * `parkNanosPerRecord` > 0 adds emulated compute to every click on the reduce side (a park per batch of 64, so it
 * costs no CPU): sixteen slots then behave as sixteen workers on a 2-core machine.
 *
 * `distinctPairs` computes the same answer the way a wide aggregation does: the distinct (region, IP) pairs, keyed
 * by the pair and partitioned by region, then counted per partition. The hot partition's combine then holds one
 * entry per distinct IP (millions), where the bitset holds one per region: the shape that spills at a tight
 * executor memory.
 */
final case class ClickLog(
    s: Double,
    records: Long,
    maps: Int,
    parkNanosPerRecord: Long,
    distinctPairs: Boolean = false,
    ipBits: Int = ClickLog.IpBits
) {
  require(ipBits >= 1 && ipBits <= 31, s"IP bits must be 1 to 31, got $ipBits")
  val regions = 64
  private val ipSpace = 1 << ipBits

  /** Share of all clicks in the hottest region (the largest partition's share of the work). */
  private val ranks = ZipfRanks(regions, s)

  def hottestShare: Double = ranks.hottestShare

  /** Distinct IPs per region. */
  def run(sc: SparkContext): Map[Int, Int] = if (distinctPairs) runPairs(sc) else runBitsets(sc)

  private def runBitsets(sc: SparkContext): Map[Int, Int] = {
    val self = this
    val park = parkNanosPerRecord
    sc.parallelize(0 until maps, maps)
      .flatMap(slice => self.clicks(slice))
      .combineByKey[BitSet](
        (ip: Int) => { val b = new BitSet(); b.set(ip); b },
        (b: BitSet, ip: Int) => {
          if (park > 0 && (ip & 63) == 0) LockSupport.parkNanos(park * 64)
          b.set(ip)
          b
        },
        (a: BitSet, b: BitSet) => { a.or(b); a },
        new HashPartitioner(regions),
        mapSideCombine = false
      )
      .mapValues(_.cardinality())
      .collect()
      .toMap
  }

  private def runPairs(sc: SparkContext): Map[Int, Int] = {
    val self = this
    val park = parkNanosPerRecord
    val bits = ipBits
    def click(ip: Int): Boolean = {
      if (park > 0 && (ip & 63) == 0) LockSupport.parkNanos(park * 64)
      true
    }
    sc.parallelize(0 until maps, maps)
      .flatMap(slice => self.clicks(slice))
      .map { case (region, ip) => ((region.toLong << bits) | ip, ip) }
      .combineByKey[Boolean](
        (ip: Int) => click(ip),
        (b: Boolean, ip: Int) => click(ip) && b,
        (a: Boolean, _: Boolean) => a,
        new ClickLog.RegionOfPair(regions, ipBits),
        mapSideCombine = false
      )
      .mapPartitionsWithIndex((region, pairs) => Iterator((region, pairs.size)))
      .filter(_._2 > 0)
      .collect()
      .toMap
  }

  private def clicks(slice: Int): Iterator[(Int, Int)] = {
    val random = new Random(1000L * slice + (s * 100).toLong)
    Iterator.fill(ranks.sliceSize(records, maps, slice))(
      (ranks.draw(random), random.nextInt(ipSpace))
    )
  }
}

object ClickLog {

  /** IPs are drawn from 2^IpBits addresses by default; a (region, IP) pair is `region << ipBits | ip`. */
  val IpBits = 22

  /** A (region, IP) pair's partition: its region. */
  final class RegionOfPair(regions: Int, val ipBits: Int) extends Partitioner {
    override def numPartitions: Int = regions
    override def getPartition(key: Any): Int = (key.asInstanceOf[Long] >>> ipBits).toInt
    override def equals(other: Any): Boolean = other match {
      case r: RegionOfPair => r.numPartitions == numPartitions && r.ipBits == ipBits
      case _               => false
    }
    override def hashCode: Int = regions * 31 + ipBits
  }
}
