package org.apache.spark.shuffle.levee

import scala.util.hashing.byteswap32

import org.apache.spark.Partitioner

/**
 * Keys spread over `count` buckets by a mixed hash of the key. Every key of one reduce partition has the same hash
 * modulo the reduce partition count, so the hash is mixed before it is bucketed, or a partition would fall into a
 * few buckets.
 *
 * Streams in bucket order (a worker's partial sorted by [[bucket]]) merge one bucket at a time: [[merge]] holds the
 * records of one bucket, never all of them.
 */
private[levee] final class HashBuckets(count: Int) extends Partitioner {
  require(count > 0, s"bucket count must be positive, got $count")

  override def numPartitions: Int = count

  override def getPartition(key: Any): Int = bucket(key)

  def bucket(key: Any): Int =
    if (key == null) 0 else Math.floorMod(byteswap32(key.hashCode), count)

  /**
   * Each bucket's records from every stream, combined by `combine` (which merges equal keys), bucket after bucket.
   * Every stream must come in ascending bucket order; one that goes back fails the task rather than drop records.
   */
  def merge[K, C](
      streams: Seq[Iterator[Product2[K, C]]],
      combine: Iterator[Product2[K, C]] => Iterator[Product2[K, C]]
  ): Iterator[Product2[K, C]] = {
    val runs = streams.map(_.buffered).toVector
    def nextBucket: Option[Int] =
      runs.iterator.filter(_.hasNext).map(r => bucket(r.head._1)).minOption
    var last = -1
    Iterator
      .unfold(()) { _ =>
        nextBucket.map { b =>
          if (b <= last) throw outOfOrder(b, last)
          last = b
          (combine(runs.iterator.flatMap(r => inBucket(r, b))), ())
        }
      }
      .flatten
  }

  private def inBucket[K, C](
      run: BufferedIterator[Product2[K, C]],
      b: Int
  ): Iterator[Product2[K, C]] =
    new Iterator[Product2[K, C]] {
      override def hasNext: Boolean = run.hasNext && {
        val next = bucket(run.head._1)
        if (next < b) throw outOfOrder(next, b)
        next == b
      }
      override def next(): Product2[K, C] =
        if (hasNext) run.next() else throw new NoSuchElementException(s"bucket $b is drained")
    }

  private def outOfOrder(found: Int, after: Int) =
    new IllegalStateException(
      s"a partial is not in bucket order: bucket $found after bucket $after (its records would be lost)"
    )
}

private[levee] object HashBuckets {

  /**
   * Buckets per merge: the owner's merge holds about 1/Count of the partition's output at a time. Empty buckets
   * cost nothing (the merge jumps to the smallest bucket any stream holds).
   */
  val Count = 1024
}
