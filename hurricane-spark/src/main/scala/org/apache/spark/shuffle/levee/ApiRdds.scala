package org.apache.spark.shuffle.levee

import scala.reflect.ClassTag

import org.apache.spark.{Dependency, Partition, Partitioner, ShuffleDependency, TaskContext}
import org.apache.spark.rdd.RDD

private[levee] final case class BagPartition(index: Int) extends Partition

/**
 * The reduce side of the API's shuffles: one partition per reduce partition of the first dependency, each read as a
 * bag and computed by the shape `shapeOf` gives for the RDD's dependencies (on executors they come deserialized, so
 * the shape is rebuilt from them rather than carried twice).
 */
private[levee] abstract class BagReadRDD[K, V, R: ClassTag](
    sc: org.apache.spark.SparkContext,
    part: Partitioner
) extends RDD[R](sc, Nil) {

  /** The shape of this RDD's bags, from its dependencies (the bag's shuffle first). */
  protected def shapeOf(deps: Seq[Dependency[_]]): BagShape[K, V, R]

  /** The dependencies, the first being the bag's shuffle; called once, in the driver. */
  protected def shuffles(): Seq[Dependency[_]]

  override final def getDependencies: Seq[Dependency[_]] = {
    val deps = shuffles()
    HurricaneShuffleManager.giveShape(
      deps.head.asInstanceOf[ShuffleDependency[K, V, V]],
      shapeOf(deps)
    )
    deps
  }

  override protected final def getPartitions: Array[Partition] =
    Array.tabulate[Partition](part.numPartitions)(BagPartition(_))

  override final def compute(split: Partition, context: TaskContext): Iterator[R] =
    HurricaneShuffleManager.bagRead(
      dependencies.head.asInstanceOf[ShuffleDependency[K, V, V]],
      split.index,
      context,
      shapeOf(dependencies)
    )
}

/** The reduce side of a shuffle of `prev` by `part`, every partition read as a bag and computed by `shape`. */
private[levee] final class BagRDD[K: ClassTag, V: ClassTag, R: ClassTag](
    @transient private var prev: RDD[(K, V)],
    part: Partitioner,
    shape: BagShape[K, V, R]
) extends BagReadRDD[K, V, R](prev.context, part) {

  override protected def shapeOf(deps: Seq[Dependency[_]]): BagShape[K, V, R] = shape

  override protected def shuffles(): Seq[Dependency[_]] = List(
    new ShuffleDependency[K, V, V](prev, part)
  )

  override def clearDependencies(): Unit = {
    super.clearDependencies()
    prev = null
  }
}

/**
 * `probe.hurricaneJoin(build)`: both sides shuffled by `part`; each partition's probe side is a bag, and every
 * worker holds the build side's partition and joins its chunks (see [[JoinShape]]).
 */
private[levee] final class HurricaneJoinRDD[K: ClassTag, V: ClassTag, W: ClassTag, R: ClassTag](
    @transient private var probe: RDD[(K, V)],
    @transient private var build: RDD[(K, W)],
    part: Partitioner,
    f: Iterator[(K, (V, W))] => Iterator[R],
    merge: Iterator[Iterator[R]] => Iterator[R],
    keepsPartitioner: Boolean
) extends BagReadRDD[K, V, R](probe.context, part) {

  // A plain join's pairs keep their key's partition, as stock `join`'s do.
  override val partitioner: Option[Partitioner] = if (keepsPartitioner) Some(part) else None

  override protected def shapeOf(deps: Seq[Dependency[_]]): BagShape[K, V, R] =
    new JoinShape[K, V, W, R](deps(1).asInstanceOf[ShuffleDependency[K, W, W]], f, merge)

  override protected def shuffles(): Seq[Dependency[_]] =
    List(new ShuffleDependency[K, V, V](probe, part), new ShuffleDependency[K, W, W](build, part))

  override def clearDependencies(): Unit = {
    super.clearDependencies()
    probe = null
    build = null
  }
}

/** What the public API (outside Spark's package) may build. */
object HurricaneRdds {

  def mapPartitionsWithMerge[K: ClassTag, V: ClassTag, R: ClassTag](
      rdd: RDD[(K, V)],
      part: Partitioner,
      f: Iterator[(K, V)] => Iterator[R],
      merge: Iterator[Iterator[R]] => Iterator[R]
  ): RDD[R] = {
    val sc = rdd.context
    new BagRDD[K, V, R](rdd, part, new FunctionShape[K, V, R](sc.clean(f), sc.clean(merge)))
  }

  def join[K: ClassTag, V: ClassTag, W: ClassTag](
      probe: RDD[(K, V)],
      build: RDD[(K, W)],
      part: Partitioner
  ): RDD[(K, (V, W))] =
    new HurricaneJoinRDD[K, V, W, (K, (V, W))](probe, build, part, identity, _.flatten, true)

  def joinWithMerge[K: ClassTag, V: ClassTag, W: ClassTag, R: ClassTag](
      probe: RDD[(K, V)],
      build: RDD[(K, W)],
      part: Partitioner,
      f: Iterator[(K, (V, W))] => Iterator[R],
      merge: Iterator[Iterator[R]] => Iterator[R]
  ): RDD[R] = {
    val sc = probe.context
    new HurricaneJoinRDD[K, V, W, R](probe, build, part, sc.clean(f), sc.clean(merge), false)
  }
}
