package org.apache.spark.shuffle.levee

import java.lang.ref.WeakReference
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.{AtomicBoolean, LongAdder}

import dev.levee.config.ConfigException
import dev.levee.hurricane.{HurricaneConf, HurricanePlugin}
import dev.levee.hurricane.core.MapRange
import dev.levee.hurricane.executor.CoordinatorClient
import org.apache.spark.{ShuffleDependency, SparkConf, SparkEnv, TaskContext}
import org.apache.spark.internal.Logging
import org.apache.spark.shuffle._
import org.apache.spark.util.Utils

/**
 * `spark.shuffle.manager=org.apache.spark.shuffle.levee.HurricaneShuffleManager`, with
 * `spark.plugins=dev.levee.hurricane.HurricanePlugin` (the coordinator that owns the bags).
 *
 * Writes, registration and block resolution are the delegate's (`spark.levee.hurricane.shuffle.delegate`). A
 * task's read of one whole reduce partition of a dependency that aggregates or orders keys becomes a bag read
 * ([[HurricaneShuffleReader]]); every other read (map-index ranges such as AQE's skew splits, several partitions,
 * dependencies that only move records, push-merged shuffles) is the delegate's, unchanged.
 */
class HurricaneShuffleManager(conf: SparkConf, isDriver: Boolean)
    extends ShuffleManager
    with Logging {
  private val settings = HurricaneConf(conf)

  /** Raw views of this manager's shuffles (see [[RawDependency]]). */
  private[levee] val rawViews = new RawDependency.Views

  /** The views a shape's reads go through, if it reads raw. */
  private[levee] def rawViewsIf(shape: BagShape[_, _, _]): Option[RawDependency.Views] =
    if (shape.readsRaw) Some(rawViews) else None

  private[levee] val delegate: ShuffleManager = {
    val name = settings.delegateShuffleManager
    def refuse(why: String, cause: Throwable = null) =
      new ConfigException(HurricaneConf.Delegate.name, name, why, cause)
    if (name == getClass.getName) throw refuse("another ShuffleManager than Hurricane's own")
    try Utils.instantiateSerializerOrShuffleManager[ShuffleManager](name, conf, isDriver)
    catch {
      case e: ClassNotFoundException =>
        throw refuse("a ShuffleManager class on the classpath (not found)", e)
      case e: ClassCastException =>
        throw refuse("a ShuffleManager class (this class is not one)", e)
    }
  }

  if (isDriver && settings.enabled) {
    val plugins = conf.get("spark.plugins", "").split(",").map(_.trim)
    if (!plugins.contains(classOf[HurricanePlugin].getName)) {
      throw new ConfigException(
        "spark.plugins",
        conf.get("spark.plugins", ""),
        s"a list that names ${classOf[HurricanePlugin].getName}: the Hurricane shuffle manager needs its " +
          s"coordinator in the driver (or set ${HurricaneConf.Enabled.name}=false)"
      )
    }
    logInfo(
      s"${HurricaneShuffleManager.DriverStartedMessage} ${delegate.getClass.getName}: mode ${settings.mode.name}, chunks of " +
        s"${settings.chunkTargetBytes} bytes, ${settings.window} per round trip"
    )
  }

  override def registerShuffle[K, V, C](
      shuffleId: Int,
      dependency: ShuffleDependency[K, V, C]
  ): ShuffleHandle = {
    if (isDriver) HurricaneShuffleManager.dependencies.put(shuffleId, new WeakReference(dependency))
    delegate.registerShuffle(shuffleId, dependency)
  }

  override def getWriter[K, V](
      handle: ShuffleHandle,
      mapId: Long,
      context: TaskContext,
      metrics: ShuffleWriteMetricsReporter
  ): ShuffleWriter[K, V] = delegate.getWriter(handle, mapId, context, metrics)

  override def getReader[K, C](
      handle: ShuffleHandle,
      startMapIndex: Int,
      endMapIndex: Int,
      startPartition: Int,
      endPartition: Int,
      context: TaskContext,
      metrics: ShuffleReadMetricsReporter
  ): ShuffleReader[K, C] = {
    def delegated =
      delegate.getReader[K, C](
        handle,
        startMapIndex,
        endMapIndex,
        startPartition,
        endPartition,
        context,
        metrics
      )
    handle match {
      case base: BaseShuffleHandle[K @unchecked, _, C @unchecked]
          if startMapIndex == 0 && endMapIndex == Int.MaxValue &&
            endPartition == startPartition + 1 && bagReadable(base.dependency, context) =>
        MergeShape.of(base.dependency, ownerByBucket = settings.mergeCost == 0) match {
          case Some(shape) if CoordinatorClient.available =>
            val dep = base.dependency
            new HurricaneShuffleReader[K, C](
              base,
              startPartition,
              context,
              shape,
              range =>
                HurricaneShuffleManager
                  .readFrom(
                    delegate,
                    dep,
                    range,
                    startPartition,
                    context,
                    metrics,
                    rawViewsIf(shape)
                  ),
              () => HurricaneShuffleManager.blockSizes(handle.shuffleId, startPartition)
            )
          case Some(_) =>
            if (HurricaneShuffleManager.warnedNoPlugin.compareAndSet(false, true))
              logWarning(s"Reads pass through to the delegate: ${CoordinatorClient.NotLoaded}")
            delegated
          case None => delegated
        }
      case _ => delegated
    }
  }

  /** Whether a task's whole-partition read of `dep` may be a bag read at all. */
  private def bagReadable(dep: ShuffleDependency[_, _, _], context: TaskContext): Boolean =
    settings.enabled && context != null && enabledForJob(context) &&
      !dep.isShuffleMergeFinalizedMarked

  /** `sc.setLocalProperty("spark.levee.hurricane.enabled", "false")` turns bag reads off for one job's tasks. */
  private def enabledForJob(context: TaskContext): Boolean =
    !"false".equalsIgnoreCase(context.getLocalProperty(HurricaneConf.Enabled.name))

  override def unregisterShuffle(shuffleId: Int): Boolean = {
    HurricaneShuffleManager.dependencies.remove(shuffleId)
    rawViews.forget(shuffleId)
    delegate.unregisterShuffle(shuffleId)
  }

  override def shuffleBlockResolver: ShuffleBlockResolver = delegate.shuffleBlockResolver

  override def stop(): Unit = {
    rawViews.clear()
    delegate.stop()
  }
}

object HurricaneShuffleManager {
  private val warnedNoPlugin = new AtomicBoolean(false)

  /** How the line starts that a driver's manager logs when it starts switched on (test harnesses count it). */
  val DriverStartedMessage = "Hurricane reads over"

  private val bagReads = new LongAdder

  private[levee] def bagReadStarted(): Unit = bagReads.increment()

  /** Bag reads this JVM's tasks began (harnesses check that a suite's reads really went through bags). */
  def bagReadsInThisJvm: Long = bagReads.sum()

  /** The driver's shuffle dependencies by id, weakly, so Spark's cleaner still sees them go. */
  private val dependencies = new ConcurrentHashMap[Int, WeakReference[ShuffleDependency[_, _, _]]]()

  private[levee] def dependency(shuffleId: Int): Option[ShuffleDependency[_, _, _]] =
    Option(dependencies.get(shuffleId)).flatMap(ref => Option(ref.get()))

  /** Shapes the API's RDDs give their dependencies, weakly keyed by the dependency (identity), in the driver. */
  private val customShapes =
    java.util.Collections.synchronizedMap(
      new java.util.WeakHashMap[ShuffleDependency[_, _, _], BagShape[_, _, _]]()
    )

  /** Called in the driver by an RDD of the API when it creates its dependency, before any task reads it. */
  private[levee] def giveShape[K, C](
      dep: ShuffleDependency[K, _, C],
      shape: BagShape[K, C, _]
  ): Unit =
    customShapes.put(dep, shape)

  /** What a bag of `dep` computes: the shape an API RDD gave it, else the one its aggregator or ordering implies. */
  private[levee] def shapeOf[K, C](dep: ShuffleDependency[K, _, C]): Option[BagShape[K, C, Any]] =
    Option(customShapes.get(dep))
      .orElse(MergeShape.of(dep))
      .map(_.asInstanceOf[BagShape[K, C, Any]])

  /**
   * An API RDD's read of reduce partition `partition` of `dep`, computed by `shape`: a bag read when Hurricane is
   * this JVM's shuffle manager and on for the job, otherwise the shape over one whole read, which is what the
   * operation means without Hurricane (the split contract with a single part).
   */
  private[levee] def bagRead[K, C, Out](
      dep: ShuffleDependency[K, _, C],
      partition: Int,
      context: TaskContext,
      shape: BagShape[K, C, Out]
  ): Iterator[Out] = {
    val metrics = context.taskMetrics().createTempShuffleReadMetrics()
    SparkEnv.get.shuffleManager match {
      case h: HurricaneShuffleManager
          if h.bagReadable(dep, context) && CoordinatorClient.available =>
        new BagRead[K, C, Out](
          dep.shuffleId,
          partition,
          context,
          shape,
          range =>
            readFrom(h.delegate, dep, range, partition, context, metrics, h.rawViewsIf(shape)),
          () => blockSizes(dep.shuffleId, partition)
        ).read()
      case manager =>
        val all = manager
          .getReader[K, C](dep.shuffleHandle, partition, partition + 1, context, metrics)
          .read()
        shape.whole(partition, all, context)
    }
  }

  /** A clone's read of a map range, through the delegate of this JVM's Hurricane manager. */
  private[levee] def readRange[K, C](
      dep: ShuffleDependency[K, _, C],
      range: MapRange,
      partition: Int,
      context: TaskContext,
      metrics: ShuffleReadMetricsReporter,
      shape: BagShape[_, _, _]
  ): Iterator[Product2[K, C]] = SparkEnv.get.shuffleManager match {
    case h: HurricaneShuffleManager =>
      readFrom(
        h.delegate,
        dep,
        range,
        partition,
        context,
        metrics,
        h.rawViewsIf(shape)
      )
    case other =>
      throw new IllegalStateException(s"a Hurricane clone ran where the shuffle manager is $other")
  }

  /** With `raw` views: the map outputs' records as written ([[RawDependency]]), else the delegate's read of `dep`. */
  private[levee] def readFrom[K, C](
      delegate: ShuffleManager,
      dep: ShuffleDependency[K, _, C],
      range: MapRange,
      partition: Int,
      context: TaskContext,
      metrics: ShuffleReadMetricsReporter,
      raw: Option[RawDependency.Views]
  ): Iterator[Product2[K, C]] =
    delegate
      .getReader[K, C](
        raw.fold(dep.shuffleHandle)(_.of(dep).shuffleHandle),
        range.startMap,
        range.endMap,
        partition,
        partition + 1,
        context,
        metrics
      )
      .read()

  /**
   * Each map task's block size for `partition`, as this executor's map-output tracker has it (empty blocks are
   * absent from its answer and count 0). A lost map output surfaces here as Spark's own fetch failure, so the
   * scheduler re-runs the map stage as it would for a stock read.
   */
  private[levee] def blockSizes(shuffleId: Int, partition: Int): Array[Long] = {
    val blocks = SparkEnv.get.mapOutputTracker
      .getMapSizesByExecutorId(shuffleId, 0, Int.MaxValue, partition, partition + 1)
      .flatMap(_._2)
      .toVector
    val sizes = new Array[Long](if (blocks.isEmpty) 0 else blocks.map(_._3).max + 1)
    blocks.foreach { case (_, size, mapIndex) => sizes(mapIndex) += size }
    sizes
  }
}
