package org.apache.spark.shuffle.levee

import java.lang.reflect.Field
import java.util.concurrent.ConcurrentHashMap

import scala.util.Try

import org.apache.spark.{ShuffleDependency, SparkEnv}
import org.apache.spark.internal.Logging
import org.apache.spark.shuffle.BaseShuffleHandle
import org.apache.spark.shuffle.sort.SortShuffleManager

/**
 * A copy of a shuffle dependency whose reads return the map outputs' records as written: no aggregator, no key
 * ordering. Its handle (a copy of the same class) points at the copy, so any delegate reads it as its own.
 *
 * Why: a bag read combines a worker's chunks once, in one sorter. Reading through the dependency itself would have
 * the delegate combine every window first and the worker combine the windows' results again: twice the hashing of
 * every record, and two maps holding the same keys at once, which spill each other out at a tight executor memory.
 *
 * Spark offers no public way to read a shuffle without its aggregator, so the copy's three fields are set by
 * reflection; where that fails (a Spark whose fields differ) [[available]] is false and bag reads stay combined
 * per window, as before, with one warning.
 */
private[levee] object RawDependency extends Logging {
  private val dependencyClass = classOf[ShuffleDependency[_, _, _]]

  private lazy val fields: Option[(Field, Field, Field)] =
    Try {
      def field(name: String): Field = {
        val f = dependencyClass.getDeclaredField(name)
        f.setAccessible(true)
        f
      }
      (field("aggregator"), field("keyOrdering"), field("mapSideCombine"))
    }.fold(
      e => {
        logWarning(
          s"Bag reads combine each window first: no raw view of a shuffle dependency here ($e)"
        )
        None
      },
      Some(_)
    )

  /** Whether raw views can be made in this JVM's Spark. */
  def available: Boolean = fields.isDefined

  /**
   * Whether `dep`'s map outputs can be read raw: its handle is one of sort shuffle's, whose blocks hold the
   * records as written. Another manager's handle may mean another block format (the leaky manager's grouped
   * handle writes packs that only its own aggregating reader decodes), so those reads stay the delegate's.
   */
  def readable(dep: ShuffleDependency[_, _, _]): Boolean =
    available && {
      val handle = dep.shuffleHandle.getClass
      handle == classOf[BaseShuffleHandle[_, _, _]] ||
      handle.getName.startsWith(classOf[SortShuffleManager].getPackageName + ".")
    }

  /**
   * One shuffle manager's raw views, by shuffle id: every task deserializes its own copy of a dependency, so a view
   * made per object would be made again by every task; one per shuffle serves them all (the reader takes only the
   * handle, the serializer and the shuffle id from it). Held by the manager, not the JVM: shuffle ids restart with
   * each SparkContext, and a JVM may run several in turn (local mode, test suites).
   */
  final class Views {
    private val byShuffle = new ConcurrentHashMap[Int, ShuffleDependency[_, _, _]]()

    /** The raw view of `dep`, made once per shuffle. */
    def of[K, C](dep: ShuffleDependency[K, _, C]): ShuffleDependency[K, _, C] =
      byShuffle
        .computeIfAbsent(dep.shuffleId, _ => copyWithoutCombining(dep))
        .asInstanceOf[ShuffleDependency[K, _, C]]

    /** Forgets the view of a shuffle that is gone. */
    def forget(shuffleId: Int): Unit = byShuffle.remove(shuffleId)

    def clear(): Unit = byShuffle.clear()
  }

  private def copyWithoutCombining(dep: ShuffleDependency[_, _, _]): ShuffleDependency[_, _, _] = {
    val (aggregator, keyOrdering, mapSideCombine) =
      fields.getOrElse(throw new IllegalStateException("no raw view of a shuffle dependency here"))
    // The closure serializer resolves the task's own classes (its aggregator's functions) by the task's loader.
    val serializer = SparkEnv.get.closureSerializer.newInstance()
    val copy = serializer.deserialize[ShuffleDependency[_, _, _]](
      serializer.serialize(dep),
      Thread.currentThread().getContextClassLoader
    )
    aggregator.set(copy, None)
    keyOrdering.set(copy, None)
    mapSideCombine.setBoolean(copy, false)
    copy
  }
}
