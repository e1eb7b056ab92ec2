package dev.levee.leaky.aggregate

import dev.levee.leaky.LeakyConf
import org.apache.spark.{Aggregator, TaskContext}
import org.apache.spark.serializer.Serializer

/**
 * The reduce side of groupByKey / reduceByKey / aggregateByKey / combineByKey with a leaky
 * table instead of Spark's ExternalAppendOnlyMap: the same Aggregator functions, applied when a
 * group is emitted rather than as records arrive.
 */
object LeakyAggregation {

  /** Records carry raw values (no map-side combine). */
  def combineValuesByKey[K, V, C](
      records: Iterator[Product2[K, V]],
      aggregator: Aggregator[K, V, C],
      serializer: Serializer,
      conf: LeakyConf,
      context: TaskContext
  ): Iterator[(K, C)] = {
    LeakyTask.group[K, C](
      context,
      serializer,
      conf,
      LeakyTask.useJoinLayout(conf, joinLike = false),
      Seq(records),
      values => new CombiningBuilder[V, C](values, aggregator.createCombiner, aggregator.mergeValue)
    )
  }

  /** Records carry packs of raw values, grouped by key on the map side (MapSideGrouper). */
  def combinePackedValuesByKey[K, V, C](
      packs: Iterator[Product2[K, Array[Byte]]],
      aggregator: Aggregator[K, V, C],
      serializer: Serializer,
      conf: LeakyConf,
      context: TaskContext
  ): Iterator[(K, C)] = {
    val table =
      new TaskTable[K](context, serializer, conf, LeakyTask.useJoinLayout(conf, joinLike = false))
    table.insertPacks(packs)
    table.emit(values =>
      new CombiningBuilder[V, C](values, aggregator.createCombiner, aggregator.mergeValue)
    )
  }

  /** Records carry combiners built by a map-side combine. */
  def combineCombinersByKey[K, C](
      records: Iterator[Product2[K, C]],
      aggregator: Aggregator[K, _, C],
      serializer: Serializer,
      conf: LeakyConf,
      context: TaskContext
  ): Iterator[(K, C)] = {
    val merge = aggregator.mergeCombiners
    LeakyTask.group[K, C](
      context,
      serializer,
      conf,
      LeakyTask.useJoinLayout(conf, joinLike = false),
      Seq(records),
      values => new CombiningBuilder[C, C](values, identity, merge)
    )
  }
}
