package dev.levee.leaky.aggregate

import scala.reflect.ClassTag

import dev.levee.leaky.LeakyConf
import org.apache.spark.{Partitioner, SparkEnv, TaskContext}
import org.apache.spark.rdd.{RDD, ShuffledRDD}

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
    require(
      inputs.nonEmpty && inputs.size <= 2,
      s"leaky cogroup takes 1 or 2 inputs, got ${inputs.size}"
    )
    val conf = LeakyConf(inputs.head.sparkContext.getConf) // fails fast on the driver
    val joinLayout = LeakyTask.useJoinLayout(conf, joinLike)
    val sides = inputs.size
    val aligned: Seq[RDD[Product2[K, Any]]] = inputs.map { rdd =>
      val r = rdd.asInstanceOf[RDD[Product2[K, Any]]]
      if (r.partitioner.contains(partitioner)) r
      else new ShuffledRDD[K, Any, Any](r, partitioner).asInstanceOf[RDD[Product2[K, Any]]]
    }
    def group(perInput: Seq[Iterator[Product2[K, Any]]]): Iterator[(K, Array[Iterable[Any]])] =
      LeakyTask.group[K, Array[Iterable[Any]]](
        TaskContext.get(),
        SparkEnv.get.serializer,
        conf,
        joinLayout,
        perInput,
        values => new CogroupBuilder(values, sides)
      )
    if (sides == 1) {
      aligned.head.mapPartitions(it => group(Seq(it)), preservesPartitioning = true)
    } else {
      aligned.head.zipPartitions(aligned(1), preservesPartitioning = true)((a, b) =>
        group(Seq(a, b))
      )
    }
  }
}
