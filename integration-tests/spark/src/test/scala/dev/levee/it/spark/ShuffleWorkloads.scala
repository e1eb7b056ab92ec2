package dev.levee.it.spark

import scala.util.Random

/**
 * Generated inputs for shuffle tests and their expected results computed on the driver with plain
 * Scala collections, so that Spark's answer is checked against something that does not use Spark.
 * Key distributions are skewed (a few hot keys) and values repeat, so multiplicities matter.
 */
object ShuffleWorkloads {

  type Multiset[V] = Map[V, Int]

  def multiset[V](values: Iterable[V]): Multiset[V] = values.groupMapReduce(identity)(_ => 1)(_ + _)

  /** `n` records over `keys` keys, `hotShare` of them on `hotKeys` keys starting at `firstHotKey`. */
  def skewedPairs(
      seed: Long,
      n: Int,
      keys: Range,
      hotKeys: Int,
      firstHotKey: Int,
      hotShare: Double
  ): Vector[(Int, String)] = {
    val rnd = new Random(seed)
    Vector.fill(n) {
      val key =
        if (rnd.nextDouble() < hotShare) firstHotKey + rnd.nextInt(hotKeys)
        else keys.start + rnd.nextInt(keys.size)
      key -> s"v${rnd.nextInt(500)}"
    }
  }

  def uniformPairs(seed: Long, n: Int, keys: Range): Vector[(Int, Long)] = {
    val rnd = new Random(seed)
    Vector.fill(n)((keys.start + rnd.nextInt(keys.size)) -> rnd.nextInt(200).toLong)
  }

  def grouped[K, V](records: Seq[(K, V)]): Map[K, Multiset[V]] =
    records.groupMap(_._1)(_._2).view.mapValues(multiset).toMap

  def joined[K, A, B](left: Seq[(K, A)], right: Seq[(K, B)]): Map[K, Multiset[(A, B)]] = {
    val l = left.groupMap(_._1)(_._2)
    val r = right.groupMap(_._1)(_._2)
    (l.keySet intersect r.keySet).iterator.map { k =>
      k -> multiset(for (a <- l(k); b <- r(k)) yield (a, b))
    }.toMap
  }

  def cogrouped[K, A, B](
      left: Seq[(K, A)],
      right: Seq[(K, B)]
  ): Map[K, (Multiset[A], Multiset[B])] = {
    val l = grouped(left)
    val r = grouped(right)
    (l.keySet ++ r.keySet).iterator
      .map(k => k -> (l.getOrElse(k, Map.empty[A, Int]), r.getOrElse(k, Map.empty[B, Int])))
      .toMap
  }

  def summed[K](records: Seq[(K, Long)]): Map[K, Long] = records.groupMapReduce(_._1)(_._2)(_ + _)
}
