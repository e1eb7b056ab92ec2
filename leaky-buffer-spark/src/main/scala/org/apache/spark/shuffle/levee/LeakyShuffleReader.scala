package org.apache.spark.shuffle.levee

import scala.collection

import dev.levee.leaky.LeakyConf
import dev.levee.leaky.aggregate.{
  AggregationRoute,
  ArrivalCombiner,
  LeakyAggregation,
  LeakyTask,
  TaskTable
}
import org.apache.spark.{Aggregator, InterruptibleIterator, SparkEnv, TaskContext}
import org.apache.spark.internal.config
import org.apache.spark.shuffle.{BaseShuffleHandle, ShuffleReader, ShuffleReadMetricsReporter}
import org.apache.spark.storage.{BlockId, BlockManagerId, ShuffleBlockFetcherIterator}
import org.apache.spark.util.CompletionIterator

/**
 * Reads a shuffle whose dependency aggregates without a key ordering, and aggregates it with
 * the leaky table; `packed`: its map tasks wrote each key's values as packs (MapSideGrouper). Fetching is Spark's ShuffleBlockFetcherIterator with the same settings as
 * BlockStoreShuffleReader (batch fetch not used: it only applies to adaptive coalescing reads).
 */
private[levee] final class LeakyShuffleReader[K, C](
    handle: BaseShuffleHandle[K, _, C],
    blocksByAddress: Iterator[(BlockManagerId, collection.Seq[(BlockId, Long, Int)])],
    context: TaskContext,
    readMetrics: ShuffleReadMetricsReporter,
    leakyConf: LeakyConf,
    decided: Option[AggregationRoute],
    packed: Boolean,
    onTableRead: () => Unit
) extends ShuffleReader[K, C] {

  private val dep = handle.dependency

  override def read(): Iterator[Product2[K, C]] = {
    val env = SparkEnv.get
    val conf = env.conf
    val streams = new ShuffleBlockFetcherIterator(
      context,
      env.blockManager.blockStoreClient,
      env.blockManager,
      env.mapOutputTracker,
      blocksByAddress,
      env.serializerManager.wrapStream,
      conf.get(config.REDUCER_MAX_SIZE_IN_FLIGHT) * 1024 * 1024,
      conf.get(config.REDUCER_MAX_REQS_IN_FLIGHT),
      conf.get(config.REDUCER_MAX_BLOCKS_IN_FLIGHT_PER_ADDRESS),
      conf.get(config.MAX_REMOTE_BLOCK_SIZE_FETCH_TO_MEM),
      conf.get(config.SHUFFLE_MAX_ATTEMPTS_ON_NETTY_OOM),
      conf.get(config.SHUFFLE_DETECT_CORRUPT),
      conf.get(config.SHUFFLE_DETECT_CORRUPT_MEMORY),
      conf.get(config.SHUFFLE_CHECKSUM_ENABLED),
      conf.get(config.SHUFFLE_CHECKSUM_ALGORITHM),
      readMetrics,
      false
    ).toCompletionIterator

    val serializer = dep.serializer.newInstance()
    val records = streams.flatMap { case (_, in) =>
      serializer.deserializeStream(in).asKeyValueIterator
    }
    val counted = CompletionIterator[(Any, Any), Iterator[(Any, Any)]](
      records.map { r => readMetrics.incRecordsRead(1); r },
      context.taskMetrics().mergeShuffleReadMetrics()
    )
    val interruptible = new InterruptibleIterator[(Any, Any)](context, counted).buffered

    val aggregator = dep.aggregator.get
    // The dependency's combiner type did not decide it: the first combiner does (see AggregationRoute).
    val route = decided.getOrElse(
      AggregationRoute.ofFirstCombiner(interruptible.headOption.map(_._2))
    )
    val result: Iterator[Product2[K, C]] = route match {
      case AggregationRoute.OnArrival =>
        // What Spark's own reader does with these records.
        if (dep.mapSideCombine) {
          aggregator.combineCombinersByKey(interruptible.asInstanceOf[Iterator[(K, C)]], context)
        } else {
          aggregator
            .asInstanceOf[Aggregator[K, Any, C]]
            .combineValuesByKey(interruptible.asInstanceOf[Iterator[(K, Any)]], context)
        }
      case AggregationRoute.ArrivalThenTable =>
        val combiner = new ArrivalCombiner[K, C](
          context,
          aggregator.mergeCombiners,
          (Runtime.getRuntime.maxMemory * leakyConf.arrivalHeapFraction).toLong,
          leakyConf.initialMemoryThreshold,
          SparkInternals.spillTriggers(conf),
          () => SparkInternals.newCombinerMap[K, C](),
          () => {
            onTableRead()
            new TaskTable[K](
              context,
              dep.serializer,
              leakyConf,
              LeakyTask.useJoinLayout(leakyConf, joinLike = false)
            )
          }
        )
        combiner.combine(interruptible.asInstanceOf[Iterator[(K, C)]])
      case AggregationRoute.Table =>
        onTableRead()
        if (packed) {
          LeakyAggregation.combinePackedValuesByKey[K, Any, C](
            interruptible.asInstanceOf[Iterator[(K, Array[Byte])]],
            aggregator.asInstanceOf[Aggregator[K, Any, C]],
            dep.serializer,
            leakyConf,
            context
          )
        } else if (dep.mapSideCombine) {
          LeakyAggregation.combineCombinersByKey[K, C](
            interruptible.asInstanceOf[Iterator[(K, C)]],
            aggregator,
            dep.serializer,
            leakyConf,
            context
          )
        } else {
          LeakyAggregation.combineValuesByKey[K, Any, C](
            interruptible.asInstanceOf[Iterator[(K, Any)]],
            aggregator.asInstanceOf[Aggregator[K, Any, C]],
            dep.serializer,
            leakyConf,
            context
          )
        }
    }
    new InterruptibleIterator[Product2[K, C]](context, result)
  }
}
