package dev.levee.hurricane.api

import scala.reflect.ClassTag

import org.apache.spark.{HashPartitioner, Partitioner}
import org.apache.spark.rdd.RDD
import org.apache.spark.shuffle.levee.HurricaneRdds

/**
 * The operations only Hurricane has, on pair RDDs: `import dev.levee.hurricane.api.Hurricane._`.
 *
 * Each shuffles its input by a partitioner and reads every reduce partition as a bag, so a skewed partition's work
 * is shared by clones at run time (with the Hurricane shuffle manager and plugin switched on). Without them, or with
 * `spark.levee.hurricane.enabled=false` for the job, the same operations run as one read per partition and give the
 * same result.
 */
object Hurricane {

  implicit class HurricanePairFunctions[K: ClassTag, V: ClassTag](self: RDD[(K, V)]) {

    /**
     * The inner join of `self` (the probe side, whose partitions are split among clones) with `build` (the build
     * side: each worker holds the build side's whole partition in a hash table, so it should be the smaller or the
     * less skewed relation; a partition above `spark.levee.hurricane.join.buildMaxBytes` fails with a message). The
     * pairs are those of `self.join(build)`; their order within a partition is not the same. Both sides are
     * shuffled, even when already partitioned alike: the bag is the shuffle's map output.
     */
    def hurricaneJoin[W: ClassTag](build: RDD[(K, W)]): RDD[(K, (V, W))] =
      hurricaneJoin(build, Partitioner.defaultPartitioner(self, build))

    def hurricaneJoin[W: ClassTag](build: RDD[(K, W)], numPartitions: Int): RDD[(K, (V, W))] =
      hurricaneJoin(build, new HashPartitioner(numPartitions))

    def hurricaneJoin[W: ClassTag](
        build: RDD[(K, W)],
        partitioner: Partitioner
    ): RDD[(K, (V, W))] = {
      refuseArrayKeys(partitioner)
      HurricaneRdds.join(self, build, partitioner)
    }

    /**
     * `hurricaneJoin` followed by `f` on each worker's joined pairs, merged by `merge` (the owner's result first,
     * then each clone's), under the same split contract as [[mapPartitionsWithMerge]]. Where a join feeds an
     * aggregation, this lets the clones aggregate their own pairs: with the plain join, every joined pair of a
     * partition still passes through its owner task.
     */
    def hurricaneJoinWithMerge[W: ClassTag, R: ClassTag](
        build: RDD[(K, W)],
        partitioner: Partitioner
    )(
        f: Iterator[(K, (V, W))] => Iterator[R]
    )(merge: Iterator[Iterator[R]] => Iterator[R]): RDD[R] = {
      refuseArrayKeys(partitioner)
      HurricaneRdds.joinWithMerge(self, build, partitioner, f, merge)
    }

    /**
     * Shuffles `self` by `partitioner` and computes each partition as `merge` over `f` of disjoint parts of its
     * records: the owner's part first, then each clone's. The caller promises the split contract: for any split of
     * a partition's records into A and B (in any order), `f(A ∪ B) = merge(f(A), f(B))`, e.g. `f` a per-key
     * aggregation and `merge` combining equal keys, or `f` a sort and `merge` a k-way merge. A merge that consumes
     * the first part before asking for the next lets the owner read its own chunks while clones run.
     */
    def mapPartitionsWithMerge[R: ClassTag](partitioner: Partitioner)(
        f: Iterator[(K, V)] => Iterator[R]
    )(merge: Iterator[Iterator[R]] => Iterator[R]): RDD[R] = {
      refuseArrayKeys(partitioner)
      HurricaneRdds.mapPartitionsWithMerge(self, partitioner, f, merge)
    }

    /** As stock Spark's pair operations refuse them: arrays hash by identity. */
    private def refuseArrayKeys(partitioner: Partitioner): Unit =
      if (
        implicitly[ClassTag[K]].runtimeClass.isArray && partitioner.isInstanceOf[HashPartitioner]
      ) {
        throw new IllegalArgumentException(
          "HashPartitioner cannot partition array keys (they hash by identity): use keys that are not arrays, " +
            "e.g. a Seq or a String, or a partitioner of your own"
        )
      }
  }
}
