package org.apache.spark.shuffle.levee

import scala.reflect.ClassTag

import dev.levee.hurricane.executor.{BagWorker, CoordinatorClient}
import dev.levee.hurricane.protocol.{AttemptEnded, BagKey}
import org.apache.spark.{Partition, ShuffleDependency, SparkContext, TaskContext}
import org.apache.spark.rdd.RDD

private[levee] case object ClonePartition extends Partition {
  override def index: Int = 0
}

/**
 * A clone: one task that works as worker `worker` of `bag` and yields its partial. It declares the shuffle's own
 * dependency, so the scheduler finds the finished map stage by shuffle id and runs no map task again; it prefers no
 * location, so `spark.locality.wait` never holds it back from an idle slot (see the module README's risk 3).
 */
private[levee] final class HurricaneCloneRDD[K, C](
    sc: SparkContext,
    dep: ShuffleDependency[K, _, C],
    bag: BagKey,
    worker: Int
) extends RDD[Product2[K, C]](sc, Seq(dep))(ClassTag(classOf[Product2[_, _]])) {

  override protected def getPartitions: Array[Partition] = Array(ClonePartition)

  override protected def getPreferredLocations(split: Partition): Seq[String] = Nil

  override def compute(split: Partition, context: TaskContext): Iterator[Product2[K, C]] = {
    val attempt = context.taskAttemptId()
    context.addTaskCompletionListener[Unit](_ => CoordinatorClient.tell(AttemptEnded(attempt)))
    val shape = MergeShape
      .of(dep)
      .getOrElse(throw new IllegalStateException(s"$bag: a clone of a pass-through read"))
    val metrics = context.taskMetrics().createTempShuffleReadMetrics()
    val runs = new BagWorker(bag, worker, attempt, () => context.killTaskIfInterrupted()).runs()
    shape.partial(
      runs.map(HurricaneShuffleManager.readRange(dep, _, bag.reducePartition, context, metrics)),
      context
    )
  }
}
