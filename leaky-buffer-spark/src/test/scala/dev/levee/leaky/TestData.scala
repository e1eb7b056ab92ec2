package dev.levee.leaky

import scala.util.Random

/** Generated inputs and the multiset view used to compare results with stock Spark. */
object TestData {

  /** Zipf-distributed ranks in [0, n) with exponent s, via the inverse of the CDF. */
  def zipf(n: Int, s: Double, count: Int, seed: Long): Array[Int] = {
    val weights = (1 to n).map(k => 1.0 / math.pow(k, s))
    val cdf = weights.scanLeft(0.0)(_ + _).tail.map(_ / weights.sum).toArray
    val rnd = new Random(seed)
    Array.fill(count) {
      val i = java.util.Arrays.binarySearch(cdf, rnd.nextDouble())
      math.min(n - 1, if (i >= 0) i else -i - 1)
    }
  }

  /** Values: mostly short strings, some empty, a few larger than a page. */
  def value(i: Int): String =
    if (i % 97 == 0) "" else if (i % 4999 == 0) "L" * (300 * 1024 + i % 7) else s"v$i"

  def uniformPairs(count: Int, keys: Int, seed: Long): Seq[(Int, String)] = {
    val rnd = new Random(seed)
    (0 until count).map(i => (rnd.nextInt(keys), value(i)))
  }

  def zipfPairs(count: Int, keys: Int, seed: Long): Seq[(String, String)] =
    zipf(keys, 1.1, count, seed).toSeq.zipWithIndex.map { case (k, i) => (s"key-$k", value(i)) }

  /** Values per key as a sorted multiset, so two groupings compare regardless of order. */
  def multisets[K, V](groups: Iterable[(K, Iterable[V])]): Map[K, Seq[String]] =
    groups.groupBy(_._1).map { case (k, gs) =>
      k -> gs.flatMap(_._2).map(String.valueOf).toSeq.sorted
    }

  def pairMultisets[K, V](pairs: Iterable[(K, V)]): Map[K, Seq[String]] =
    multisets(pairs.map { case (k, v) => (k, Seq(v)) })
}

/** Key whose hash collides on purpose, to prove the hash-ordered merge separates equal hashes. */
final case class CollidingKey(id: Int) {
  override def hashCode(): Int = id % 5
}

/** Value class only the structural test creates, so a heap histogram can count it. */
final case class HeapProbeValue(payload: String)
