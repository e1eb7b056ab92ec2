package dev.levee.leaky

import scala.reflect.ClassTag

import dev.levee.leaky.aggregate.LeakyCogroup
import dev.levee.leaky.join.JoinKind
import org.apache.spark.{HashPartitioner, Partitioner}
import org.apache.spark.rdd.RDD

/**
 * `import dev.levee.leaky.implicits._` adds leaky versions of groupByKey, cogroup and the
 * joins to pair RDDs. They return what the stock operators return, grouping in a leaky table; the joins stream
 * their pairs from the table's bytes, so no key's values are ever all objects at once.
 * (A plain groupByKey also goes through the leaky table when LeakyShuffleManager is on; the
 * joins cannot, because CoGroupedRDD groups outside any shuffle reader.)
 */
object implicits {

  implicit class LeakyPairRDDFunctions[K, V](self: RDD[(K, V)])(implicit kt: ClassTag[K])
      extends Serializable {

    private def defaultPart(others: RDD[_]*) = Partitioner.defaultPartitioner(self, others: _*)

    def leakyGroupByKey(): RDD[(K, Iterable[V])] = leakyGroupByKey(defaultPart())
    def leakyGroupByKey(numPartitions: Int): RDD[(K, Iterable[V])] =
      leakyGroupByKey(new HashPartitioner(numPartitions))
    def leakyGroupByKey(partitioner: Partitioner): RDD[(K, Iterable[V])] =
      LeakyCogroup
        .cogroup[K](Seq(self), partitioner, joinLike = false)
        .mapValues(g => g(0).asInstanceOf[Iterable[V]])

    def leakyCogroup[W](other: RDD[(K, W)]): RDD[(K, (Iterable[V], Iterable[W]))] =
      leakyCogroup(other, defaultPart(other))
    def leakyCogroup[W](
        other: RDD[(K, W)],
        numPartitions: Int
    ): RDD[(K, (Iterable[V], Iterable[W]))] =
      leakyCogroup(other, new HashPartitioner(numPartitions))
    def leakyCogroup[W](
        other: RDD[(K, W)],
        partitioner: Partitioner
    ): RDD[(K, (Iterable[V], Iterable[W]))] =
      LeakyCogroup.cogroup[K](Seq(self, other), partitioner, joinLike = true).mapValues { g =>
        (g(0).asInstanceOf[Iterable[V]], g(1).asInstanceOf[Iterable[W]])
      }

    def leakyJoin[W](other: RDD[(K, W)]): RDD[(K, (V, W))] = leakyJoin(other, defaultPart(other))
    def leakyJoin[W](other: RDD[(K, W)], numPartitions: Int): RDD[(K, (V, W))] =
      leakyJoin(other, new HashPartitioner(numPartitions))
    def leakyJoin[W](other: RDD[(K, W)], partitioner: Partitioner): RDD[(K, (V, W))] =
      LeakyCogroup.join[K](self, other, partitioner, JoinKind.Inner).asInstanceOf[RDD[(K, (V, W))]]

    def leakyLeftOuterJoin[W](other: RDD[(K, W)]): RDD[(K, (V, Option[W]))] =
      leakyLeftOuterJoin(other, defaultPart(other))
    def leakyLeftOuterJoin[W](other: RDD[(K, W)], numPartitions: Int): RDD[(K, (V, Option[W]))] =
      leakyLeftOuterJoin(other, new HashPartitioner(numPartitions))
    def leakyLeftOuterJoin[W](
        other: RDD[(K, W)],
        partitioner: Partitioner
    ): RDD[(K, (V, Option[W]))] =
      LeakyCogroup
        .join[K](self, other, partitioner, JoinKind.LeftOuter)
        .asInstanceOf[RDD[(K, (V, Option[W]))]]

    def leakyRightOuterJoin[W](other: RDD[(K, W)]): RDD[(K, (Option[V], W))] =
      leakyRightOuterJoin(other, defaultPart(other))
    def leakyRightOuterJoin[W](other: RDD[(K, W)], numPartitions: Int): RDD[(K, (Option[V], W))] =
      leakyRightOuterJoin(other, new HashPartitioner(numPartitions))
    def leakyRightOuterJoin[W](
        other: RDD[(K, W)],
        partitioner: Partitioner
    ): RDD[(K, (Option[V], W))] =
      LeakyCogroup
        .join[K](self, other, partitioner, JoinKind.RightOuter)
        .asInstanceOf[RDD[(K, (Option[V], W))]]

    def leakyFullOuterJoin[W](other: RDD[(K, W)]): RDD[(K, (Option[V], Option[W]))] =
      leakyFullOuterJoin(other, defaultPart(other))
    def leakyFullOuterJoin[W](
        other: RDD[(K, W)],
        numPartitions: Int
    ): RDD[(K, (Option[V], Option[W]))] =
      leakyFullOuterJoin(other, new HashPartitioner(numPartitions))
    def leakyFullOuterJoin[W](
        other: RDD[(K, W)],
        partitioner: Partitioner
    ): RDD[(K, (Option[V], Option[W]))] =
      LeakyCogroup
        .join[K](self, other, partitioner, JoinKind.FullOuter)
        .asInstanceOf[RDD[(K, (Option[V], Option[W]))]]
  }
}
