package dev.levee.it.spark.leaky

import scala.util.Random
import scala.util.hashing.MurmurHash3

/**
 * Inputs for the leaky-buffer equivalence tests, generated on the driver from fixed seeds so that
 * every run (and every serializer) sees the same records. Key laws and value shapes are the ones
 * the leaky table must not get wrong: Zipf-skewed keys (one key holds a large share of records),
 * uniform keys, empty values next to values far larger than a run segment, and join inputs whose
 * key ranges only partly overlap (one-sided keys) while hot keys repeat on both sides (many-to-many).
 */
object LeakyWorkloads {

  /** Keys 0 until `keys` with P(rank r) proportional to 1 / (r + 1)^s: key 0 is the hottest. */
  final class Zipf(keys: Int, s: Double) {
    private val cumulative: Array[Double] = {
      val weights = Array.tabulate(keys)(r => 1.0 / math.pow(r + 1.0, s))
      val total = weights.sum
      weights.scanLeft(0.0)(_ + _).tail.map(_ / total)
    }
    def sample(rnd: Random): Int = {
      val i = java.util.Arrays.binarySearch(cumulative, rnd.nextDouble())
      math.min(if (i >= 0) i else -i - 1, keys - 1)
    }
  }

  /** Short string values, one in twenty of them empty (an empty value is still a value). */
  private def shortValue(rnd: Random): String =
    if (rnd.nextInt(20) == 0) "" else s"v${rnd.nextInt(1000)}"

  def zipfWords(seed: Long, n: Int, keys: Int, firstKey: Int = 0): Vector[(Int, String)] = {
    val rnd = new Random(seed)
    val zipf = new Zipf(keys, 1.2)
    Vector.fill(n)((firstKey + zipf.sample(rnd)) -> shortValue(rnd))
  }

  def uniformWords(seed: Long, n: Int, keys: Range): Vector[(Int, String)] = {
    val rnd = new Random(seed)
    Vector.fill(n)((keys.start + rnd.nextInt(keys.size)) -> shortValue(rnd))
  }

  def zipfCounts(seed: Long, n: Int, keys: Int): Vector[(Int, Long)] = {
    val rnd = new Random(seed)
    val zipf = new Zipf(keys, 1.2)
    Vector.fill(n)(zipf.sample(rnd) -> rnd.nextInt(1000).toLong)
  }

  /**
   * A few keys with values from empty to `maxChars` characters: larger than the table's run
   * segments and pages (64 KiB and 1 MiB by default), so values straddle both.
   */
  def largeValues(seed: Long, n: Int, keys: Int, maxChars: Int): Vector[(Int, String)] = {
    val rnd = new Random(seed)
    Vector.tabulate(n) { i =>
      val chars = i % 4 match {
        case 0 => 0
        case 1 => 1 + rnd.nextInt(100)
        case 2 => maxChars / 2 + rnd.nextInt(maxChars / 2)
        case _ => 70000 + rnd.nextInt(1000) // just above one 64 KiB run segment
      }
      rnd.nextInt(keys) -> Iterator.continually(('a' + rnd.nextInt(26)).toChar).take(chars).mkString
    }
  }

  /** Stands for a value in comparisons without shipping megabytes back to the driver. */
  final case class ValueDigest(length: Int, hash: Int)

  def digest(s: String): ValueDigest = ValueDigest(s.length, MurmurHash3.stringHash(s))
}
