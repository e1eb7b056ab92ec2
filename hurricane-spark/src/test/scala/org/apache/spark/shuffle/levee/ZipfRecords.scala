package org.apache.spark.shuffle.levee

import scala.util.Random

/**
 * Deterministic Zipf-keyed records: slice `slice` of `slices` holds `perSlice` records (key, value) whose keys
 * follow P(k) ∝ 1/(k+1)^s over `keys` keys, so a test can build the same data on executors and in the driver.
 */
final case class ZipfRecords(s: Double, keys: Int, slices: Int, perSlice: Int) {
  private val cdf: Array[Double] = {
    val w = Array.tabulate(keys)(k => 1.0 / math.pow(k + 1, s))
    val total = w.sum
    w.scanLeft(0.0)(_ + _).tail.map(_ / total)
  }

  def slice(i: Int): Iterator[(Int, Int)] = {
    val random = new Random(31L * i + (s * 1000).toLong)
    Iterator.tabulate(perSlice) { j =>
      val u = random.nextDouble()
      val k = java.util.Arrays.binarySearch(cdf, u) match {
        case found if found >= 0 => found
        case insertion           => math.min(keys - 1, -insertion - 1)
      }
      (k, i * perSlice + j)
    }
  }

  def all: Vector[(Int, Int)] = (0 until slices).iterator.flatMap(slice).toVector
}
