package dev.levee.leaky.aggregate

import scala.reflect.ClassTag

import dev.levee.leaky.LeakyConf
import dev.levee.leaky.join.{JoinKind, SpoolPool, StreamedJoinBuilder}
import org.apache.spark.{Partitioner, SparkEnv, TaskContext}
import org.apache.spark.rdd.{RDD, ShuffledRDD}
import org.apache.spark.shuffle.levee.SparkInternals

/**
 * cogroup with a leaky table in place of CoGroupedRDD's in-memory map. As in CoGroupedRDD, an
 * input already partitioned by `partitioner` is read in place and any other is shuffled; the
 * aligned inputs are then zipped partition by partition and grouped, each value tagged with
 * the input it came from.
 */
object LeakyCogroup {

  def cogroup[K: ClassTag](
      inputs: Seq[RDD[_ <: Product2[K, _]]],
      partitioner: Partitioner,
      joinLike: Boolean
  ): RDD[(K, Array[Iterable[Any]])] = {
    val conf = LeakyConf(inputs.head.sparkContext.getConf) // fails fast on the driver
    val joinLayout = LeakyTask.useJoinLayout(conf, joinLike)
    val sides = inputs.size
    grouped(inputs, partitioner) { (context, perInput) =>
      LeakyTask.group[K, Array[Iterable[Any]]](
        context,
        SparkEnv.get.serializer,
        conf,
        joinLayout,
        perInput,
        values => new CogroupBuilder(values, sides)
      )
    }
  }

  /**
   * A join of `left` and `right` whose pairs stream out of the table one at a time ([[StreamedJoinBuilder]]): no
   * side of a key is ever built as a collection, so a key larger than the heap joins in bounded memory.
   */
  def join[K: ClassTag](
      left: RDD[_ <: Product2[K, _]],
      right: RDD[_ <: Product2[K, _]],
      partitioner: Partitioner,
      kind: JoinKind
  ): RDD[(K, (Any, Any))] = {
    val conf = LeakyConf(left.sparkContext.getConf) // fails fast on the driver
    val joinLayout = LeakyTask.useJoinLayout(conf, joinLike = true)
    grouped(Seq(left, right), partitioner) { (context, perInput) =>
      val spools = new SpoolPool(
        SparkInternals.spillStorage(),
        conf.joinSpoolMemory,
        conf.spillFileBuffer
      )
      context.addTaskCompletionListener[Unit](_ => spools.close())
      LeakyTask
        .group[K, Iterator[(Any, Any)]](
          context,
          SparkEnv.get.serializer,
          conf,
          joinLayout,
          perInput,
          values => new StreamedJoinBuilder(kind, values, spools)
        )
        .flatMap { case (k, pairs) => pairs.map(p => (k, p)) }
    }
  }

  /**
   * As in CoGroupedRDD, inputs already partitioned by `partitioner` are read in place and any other is shuffled; the
   * aligned inputs are zipped partition by partition and handed to `group` (input i's values tagged i).
   */
  private def grouped[K: ClassTag, T: ClassTag](
      inputs: Seq[RDD[_ <: Product2[K, _]]],
      partitioner: Partitioner
  )(group: (TaskContext, Seq[Iterator[Product2[K, Any]]]) => Iterator[T]): RDD[T] = {
    require(
      inputs.nonEmpty && inputs.size <= 2,
      s"leaky cogroup takes 1 or 2 inputs, got ${inputs.size}"
    )
    val aligned: Seq[RDD[Product2[K, Any]]] = inputs.map { rdd =>
      val r = rdd.asInstanceOf[RDD[Product2[K, Any]]]
      if (r.partitioner.contains(partitioner)) r
      else new ShuffledRDD[K, Any, Any](r, partitioner).asInstanceOf[RDD[Product2[K, Any]]]
    }
    if (aligned.size == 1) {
      aligned.head.mapPartitions(
        it => group(TaskContext.get(), Seq(it)),
        preservesPartitioning = true
      )
    } else {
      aligned.head.zipPartitions(aligned(1), preservesPartitioning = true)((a, b) =>
        group(TaskContext.get(), Seq(a, b))
      )
    }
  }
}
