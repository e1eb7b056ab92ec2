package org.apache.spark.shuffle.levee

import scala.collection.mutable

import dev.levee.hurricane.HurricaneConf
import org.apache.spark.{Dependency, ShuffleDependency, SparkEnv, TaskContext}
import org.apache.spark.util.collection.SizeTrackingAppendOnlyMap

/** Records of a plain shuffle read as the pairs the API's functions take (readers hand out `Tuple2`s already). */
private[levee] object Pairs {
  def of[K, V](records: Iterator[Product2[K, V]]): Iterator[(K, V)] =
    records.map {
      case t: Tuple2[_, _] => t.asInstanceOf[(K, V)]
      case p               => (p._1, p._2)
    }
}

/** A shape whose owner hands its own partial, then each clone's, to a caller's `merge`. */
private[levee] abstract class MergedPartials[K, V, R](merge: Iterator[Iterator[R]] => Iterator[R])
    extends BagShape[K, V, R] {

  override final def output(
      partition: Int,
      own: Iterator[Iterator[Product2[K, V]]],
      partials: => Iterator[Iterator[R]],
      context: TaskContext
  ): Iterator[R] = merge(Iterator.single(partial(partition, own, context)) ++ partials)
}

/**
 * `mapPartitionsWithMerge`: every worker applies `f` to the records of its chunks, and the owner hands its own
 * result first, then each clone's, to `merge`. The caller promises the split contract
 * f(A ∪ B) = merge(f(A), f(B)).
 */
private[levee] final class FunctionShape[K, V, R](
    f: Iterator[(K, V)] => Iterator[R],
    merge: Iterator[Iterator[R]] => Iterator[R]
) extends MergedPartials[K, V, R](merge) {

  override def partial(
      partition: Int,
      streams: Iterator[Iterator[Product2[K, V]]],
      context: TaskContext
  ): Iterator[R] = f(Pairs.of(streams.flatten))
}

/**
 * `hurricaneJoin`: the bag is the probe side's partition; every worker loads the build side's whole partition into
 * a hash table, joins its own probe chunks against it and applies `f` to the joined pairs; the owner hands its
 * result, then each clone's, to `merge`. For the plain join `f` is the identity and `merge` a concatenation (joined
 * pairs of disjoint probe chunks are disjoint); a join followed by an aggregation does the aggregation in `f`, so
 * the clones share it instead of the owner alone doing it over every joined pair.
 */
private[levee] final class JoinShape[K, V, W, R](
    build: ShuffleDependency[K, W, W],
    f: Iterator[(K, (V, W))] => Iterator[R],
    merge: Iterator[Iterator[R]] => Iterator[R]
) extends MergedPartials[K, V, R](merge) {

  override def partial(
      partition: Int,
      streams: Iterator[Iterator[Product2[K, V]]],
      context: TaskContext
  ): Iterator[R] = {
    val table = BuildTable.load(build, partition, context)
    f(streams.flatten.flatMap { probe =>
      val matches = table(probe._1)
      if (matches == null) Iterator.empty else matches.iterator.map(w => (probe._1, (probe._2, w)))
    })
  }

  override def sideDependencies: Seq[Dependency[_]] = Seq(build)
}

/** A join's build side: one reduce partition of its shuffle as a hash table from key to every value. */
private[levee] object BuildTable {

  /** Key → the build side's values, as a lookup; null for a key the build side does not have. */
  type Table[K, W] = K => mutable.ArrayBuffer[W]

  def load[K, W](
      build: ShuffleDependency[K, W, W],
      partition: Int,
      context: TaskContext
  ): Table[K, W] = {
    val limit = HurricaneConf(SparkEnv.get.conf).joinBuildMaxBytes
    val metrics = context.taskMetrics().createTempShuffleReadMetrics()
    // Spark's own size-tracking map (what its spillable maps use): map output is compressed on disk, so only the
    // table's estimated heap size says whether the partition fits.
    val table = new SizeTrackingAppendOnlyMap[K, mutable.ArrayBuffer[W]]
    var rows = 0L
    SparkEnv.get.shuffleManager
      .getReader[K, W](build.shuffleHandle, partition, partition + 1, context, metrics)
      .read()
      .foreach { r =>
        table.changeValue(
          r._1,
          (had, ws) => (if (had) ws else mutable.ArrayBuffer.empty[W]) += r._2
        )
        rows += 1
        if (limit > 0 && (rows & 63) == 0 && table.estimateSize() > limit) {
          throw new IllegalStateException(
            s"hurricaneJoin: partition $partition of the build side (shuffle ${build.shuffleId}) takes about " +
              s"${table.estimateSize()} bytes of heap after $rows rows, above " +
              s"${HurricaneConf.JoinBuildMax.name}=$limit; every worker holds its partition in memory. Allowed: " +
              "a build side (the argument of hurricaneJoin) whose partitions stay under the limit: more " +
              "partitions, the smaller or less skewed relation as the build side, or a higher limit (0 for none)"
          )
        }
      }
    key => table(key)
  }
}
