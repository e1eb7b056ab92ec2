package org.apache.spark.shuffle.levee

import dev.levee.config.ConfigException
import dev.levee.leaky.LeakyConf
import dev.levee.leaky.aggregate.{AggregationRoute, CombinerShape}
import dev.levee.leaky.mapside.MapSideGrouper
import dev.levee.leaky.memory.HeapBudget
import org.apache.spark.{ShuffleDependency, SparkConf, SparkEnv, TaskContext}
import org.apache.spark.internal.Logging
import org.apache.spark.shuffle._
import org.apache.spark.shuffle.sort.SortShuffleManager
import org.apache.spark.util.Utils

/**
 * `spark.shuffle.manager=org.apache.spark.shuffle.levee.LeakyShuffleManager`.
 *
 * Map-side writes, registration and block resolution are the delegate's
 * (`spark.levee.leaky.shuffle.delegate`, Spark's SortShuffleManager by default). Reads of a
 * dependency that aggregates without a key ordering are aggregated in a leaky table when their values grow
 * ([[dev.levee.leaky.aggregate.AggregationRoute]]: groupByKey, collection combiners); every other read, scalar
 * combiners included, is the delegate's, unchanged.
 * Spark creates one instance in the driver and one in each executor.
 */
class LeakyShuffleManager(conf: SparkConf, isDriver: Boolean) extends ShuffleManager with Logging {

  private val leakyConf = LeakyConf(conf)

  private val delegate: ShuffleManager = {
    val name = leakyConf.delegateShuffleManager
    if (name == getClass.getName) {
      throw new ConfigException(
        LeakyConf.Delegate.name,
        name,
        "another ShuffleManager than the leaky one itself"
      )
    }
    try Utils.instantiateSerializerOrShuffleManager[ShuffleManager](name, conf, isDriver)
    catch {
      case e: ClassNotFoundException =>
        throw new ConfigException(
          LeakyConf.Delegate.name,
          name,
          "a ShuffleManager class on the classpath (class not found)",
          e
        )
      case e: ClassCastException =>
        throw new ConfigException(
          LeakyConf.Delegate.name,
          name,
          "a ShuffleManager class (this class is not one)",
          e
        )
    }
  }

  /** Leaky reads need the delegate's blocks in Spark's block managers. */
  private val canReadBlocks = delegate.isInstanceOf[SortShuffleManager]
  if (leakyConf.enabled && !canReadBlocks) {
    logWarning(
      s"Delegate ${delegate.getClass.getName} does not store shuffle blocks in Spark's " +
        "block managers; every read passes through to it unchanged"
    )
  }

  if (isDriver) {
    logInfo(
      s"${LeakyShuffleManager.DriverStartedMessage}: reduce-side aggregations in leaky tables " +
        s"(${if (leakyConf.enabled && canReadBlocks) "on" else "off"}), map output by ${delegate.getClass.getName}"
    )
  }

  private val leakyReadCount = new java.util.concurrent.atomic.LongAdder

  /** Shuffle reads this manager has aggregated in a leaky table (in this JVM); reads left to Spark are not counted. */
  def leakyReads: Long = leakyReadCount.sum()

  override def registerShuffle[K, V, C](
      shuffleId: Int,
      dependency: ShuffleDependency[K, V, C]
  ): ShuffleHandle =
    delegate.registerShuffle(shuffleId, dependency) match {
      case base: BaseShuffleHandle[K @unchecked, V @unchecked, C @unchecked]
          if leakyConf.mapSideGrouping && !dependency.mapSideCombine && leakyMayRead(dependency) &&
            routeOf(dependency).contains(AggregationRoute.Table) =>
        new GroupedShuffleHandle(base)
      case other => other
    }

  override def getWriter[K, V](
      handle: ShuffleHandle,
      mapId: Long,
      context: TaskContext,
      metrics: ShuffleWriteMetricsReporter
  ): ShuffleWriter[K, V] = handle match {
    case grouped: GroupedShuffleHandle[K @unchecked, V @unchecked, _] =>
      val grouper = new MapSideGrouper[K](
        SparkInternals.taskMemoryManager(context),
        grouped.dependency.serializer.newInstance(),
        leakyConf,
        HeapBudget.of(leakyConf.maxHeapFraction, leakyConf.maxLiveFraction)
      )
      new GroupingShuffleWriter[K, V](
        delegate.getWriter[K, Array[Byte]](grouped.delegateHandle, mapId, context, metrics),
        grouper,
        context
      )
    case _ => delegate.getWriter(handle, mapId, context, metrics)
  }

  override def getReader[K, C](
      handle: ShuffleHandle,
      startMapIndex: Int,
      endMapIndex: Int,
      startPartition: Int,
      endPartition: Int,
      context: TaskContext,
      metrics: ShuffleReadMetricsReporter
  ): ShuffleReader[K, C] = {
    def leakyReader(
        base: BaseShuffleHandle[K, _, C],
        route: Option[AggregationRoute],
        packed: Boolean
    ) = {
      val dep = base.dependency
      val tracker = SparkEnv.get.mapOutputTracker
      val blocks = if (dep.isShuffleMergeFinalizedMarked) {
        tracker
          .getPushBasedShuffleMapSizesByExecutorId(
            handle.shuffleId,
            startMapIndex,
            endMapIndex,
            startPartition,
            endPartition
          )
          .iter
      } else {
        tracker.getMapSizesByExecutorId(
          handle.shuffleId,
          startMapIndex,
          endMapIndex,
          startPartition,
          endPartition
        )
      }
      new LeakyShuffleReader[K, C](
        base,
        blocks,
        context,
        metrics,
        leakyConf,
        route,
        packed,
        () => {
          leakyReadCount.increment()
          LeakyShuffleManager.readsInThisJvm.increment()
        }
      )
    }
    def delegated: ShuffleReader[K, C] = delegate.getReader[K, C](
      handle,
      startMapIndex,
      endMapIndex,
      startPartition,
      endPartition,
      context,
      metrics
    )
    handle match {
      // Its map tasks wrote packs: only the leaky table reads them, whatever this executor's settings say.
      case grouped: GroupedShuffleHandle[K @unchecked, _, C @unchecked] =>
        leakyReader(grouped, Some(AggregationRoute.Table), packed = true)
      case base: BaseShuffleHandle[K @unchecked, _, C @unchecked]
          if leakyMayRead(base.dependency) =>
        // None: the first combiner decides (see AggregationRoute.ofFirstCombiner).
        routeOf(base.dependency) match {
          case Some(AggregationRoute.OnArrival) => delegated
          case route                            => leakyReader(base, route, packed = false)
        }
      case _ => delegated
    }
  }

  /** The route of a dependency the leaky reader may take; `None` when its first combiner must decide. */
  private def routeOf(dep: ShuffleDependency[_, _, _]): Option[AggregationRoute] =
    AggregationRoute.ofDependency(
      leakyConf.aggregation,
      dep.mapSideCombine,
      CombinerShape.ofClassName(dep.combinerClassName, Utils.getContextOrSparkClassLoader)
    )

  /** Whether a leaky table may read the dependency at all (its route then says whether one does). */
  private def leakyMayRead(dep: ShuffleDependency[_, _, _]): Boolean =
    leakyConf.enabled && canReadBlocks && LeakyShuffleManager.aggregatesUnordered(dep)

  override def unregisterShuffle(shuffleId: Int): Boolean = delegate.unregisterShuffle(shuffleId)

  override def shuffleBlockResolver: ShuffleBlockResolver = delegate.shuffleBlockResolver

  override def stop(): Unit = delegate.stop()
}

object LeakyShuffleManager {

  /** How the driver's manager announces itself in the log (one line per SparkContext). */
  val DriverStartedMessage = "Levee leaky shuffle manager started on the driver"

  private val readsInThisJvm = new java.util.concurrent.atomic.LongAdder

  /** Shuffle reads any leaky manager of this JVM has aggregated in a leaky table (every context's). */
  def leakyReadsInThisJvm: Long = readsInThisJvm.sum()

  def aggregatesUnordered(dep: ShuffleDependency[_, _, _]): Boolean =
    dep.aggregator.isDefined && dep.keyOrdering.isEmpty
}
