package org.apache.spark.shuffle.levee

import scala.reflect.ClassTag

import org.apache.spark.{Dependency, Partition, Partitioner, ShuffleDependency, TaskContext}
import org.apache.spark.rdd.RDD

private[levee] final case class BagPartition(index: Int) extends Partition

/** The reduce side of a shuffle of `prev` by `part`, every partition read as a bag and computed by `shape`. */
private[levee] final class BagRDD[K: ClassTag, V: ClassTag, R: ClassTag](
    @transient private var prev: RDD[(K, V)],
    part: Partitioner,
    shape: BagShape[K, V, R]
) extends RDD[R](prev.context, Nil) {

  override def getDependencies: Seq[Dependency[_]] = {
    val dep = new ShuffleDependency[K, V, V](prev, part)
    HurricaneShuffleManager.giveShape(dep, shape)
    List(dep)
  }

  override protected def getPartitions: Array[Partition] =
    Array.tabulate[Partition](part.numPartitions)(BagPartition(_))

  override def compute(split: Partition, context: TaskContext): Iterator[R] =
    HurricaneShuffleManager.bagRead(
      dependencies.head.asInstanceOf[ShuffleDependency[K, V, V]],
      split.index,
      context,
      shape
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
) extends RDD[R](probe.context, Nil) {

  // A plain join's pairs keep their key's partition, as stock `join`'s do.
  override val partitioner: Option[Partitioner] = if (keepsPartitioner) Some(part) else None

  private def shape(buildDep: ShuffleDependency[K, W, W]) =
    new JoinShape[K, V, W, R](buildDep, f, merge)

  override def getDependencies: Seq[Dependency[_]] = {
    val probeDep = new ShuffleDependency[K, V, V](probe, part)
    val buildDep = new ShuffleDependency[K, W, W](build, part)
    HurricaneShuffleManager.giveShape(probeDep, shape(buildDep))
    List(probeDep, buildDep)
  }

  override protected def getPartitions: Array[Partition] =
    Array.tabulate[Partition](part.numPartitions)(BagPartition(_))

  override def compute(split: Partition, context: TaskContext): Iterator[R] =
    HurricaneShuffleManager.bagRead(
      dependencies.head.asInstanceOf[ShuffleDependency[K, V, V]],
      split.index,
      context,
      shape(dependencies(1).asInstanceOf[ShuffleDependency[K, W, W]])
    )

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
