package org.apache.spark.shuffle.levee

import scala.util.Random

import org.scalatest.funsuite.AnyFunSuite

class HashBucketsSuite extends AnyFunSuite {
  private type Rec = Product2[Int, Long]

  /** A worker's partial as the shape's sorter gives it: one record per key, in bucket order. */
  private def partial(b: HashBuckets, records: Seq[(Int, Long)]): Iterator[Rec] =
    records.groupMapReduce(_._1)(_._2)(_ + _).toSeq.sortBy(kv => b.bucket(kv._1)).iterator

  private def sumByKey(records: Iterator[Rec]): Iterator[Rec] =
    records.toSeq.groupMapReduce(_._1)(_._2)(_ + _).iterator

  test(
    "merging bucket-ordered partials equals combining everything at once, one bucket at a time"
  ) {
    val rnd = new Random(5)
    (0 until 200).foreach { _ =>
      val b = new HashBuckets(1 + rnd.nextInt(64))
      // Keys of one reduce partition: all equal modulo 64, as a HashPartitioner leaves them.
      val all = Seq.fill(rnd.nextInt(3000))((rnd.nextInt(500) * 64 + 7, rnd.nextInt(100).toLong))
      val cut = Seq.fill(rnd.nextInt(4))(rnd.nextInt(all.size + 1)).sorted
      val pieces = (0 +: cut).zip(cut :+ all.size).map { case (from, to) => all.slice(from, to) }
      var combines = 0
      var largest = 0
      val merged = b
        .merge[Int, Long](
          pieces.map(partial(b, _)),
          records => {
            combines += 1
            val held = records.toVector
            largest = math.max(largest, held.size)
            assert(held.map(r => b.bucket(r._1)).distinct.size <= 1, "one bucket per combine")
            sumByKey(held.iterator)
          }
        )
        .map(r => (r._1, r._2))
        .toMap
      assert(merged == all.groupMapReduce(_._1)(_._2)(_ + _))
      assert(combines == all.map(r => b.bucket(r._1)).distinct.size)
    }
  }

  test("a partition's keys, equal modulo the reduce partition count, spread over the buckets") {
    val b = new HashBuckets(HashBuckets.Count)
    val used = (0 until 100000).map(i => b.bucket(i * 64 + 3)).distinct.size
    assert(used > HashBuckets.Count * 9 / 10, s"only $used of ${HashBuckets.Count} buckets used")
  }

  test("a partial that goes back to an earlier bucket fails the merge instead of losing records") {
    val b = new HashBuckets(16)
    val keys = (0 until 200).filter(k => b.bucket(k) == 2).take(1) ++
      (0 until 200).filter(k => b.bucket(k) == 9).take(1) ++
      (0 until 200).filter(k => b.bucket(k) == 2).slice(1, 2)
    val outOfOrder: Iterator[Rec] = keys.map(k => (k, 1L)).iterator
    val e = intercept[IllegalStateException] {
      b.merge[Int, Long](Seq(outOfOrder, Iterator.empty), sumByKey).toVector
    }
    assert(e.getMessage.contains("not in bucket order"), e.getMessage)
  }
}
