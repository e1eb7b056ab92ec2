package dev.levee.bench.spark.hurricane

import scala.util.Random

/**
 * Ranks 0 .. n-1 drawn with P(rank k) ∝ 1/(k+1)^s, the thesis's skew: with one rank per reduce partition the
 * imbalance is n^s. Serializable, so map tasks draw their own slices.
 */
final case class ZipfRanks(n: Int, s: Double) {
  private val cdf: Array[Double] = {
    val w = (1 to n).map(k => 1.0 / math.pow(k, s))
    w.scanLeft(0.0)(_ + _).tail.map(_ / w.sum).toArray
  }

  /** The hottest rank's share of all draws. */
  def hottestShare: Double = cdf(0)

  def draw(random: Random): Int = {
    val i = java.util.Arrays.binarySearch(cdf, random.nextDouble())
    math.min(n - 1, if (i >= 0) i else -i - 1)
  }

  /** How many of `records` items slice `slice` of `slices` holds (the first `records % slices` hold one more). */
  def sliceSize(records: Long, slices: Int, slice: Int): Int =
    (records / slices + (if (slice < records % slices) 1 else 0)).toInt
}
