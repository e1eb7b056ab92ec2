package org.apache.spark.shuffle.levee

import scala.reflect.ClassTag

import dev.levee.hurricane.TaskCounters
import dev.levee.hurricane.executor.{BagWorker, CoordinatorClient}
import dev.levee.hurricane.protocol.{AttemptEnded, BagKey}
import org.apache.spark.{Partition, ShuffleDependency, SparkContext, TaskContext}
import org.apache.spark.rdd.RDD

private[levee] case object ClonePartition extends Partition {
  override def index: Int = 0
}

/**
 * A clone: one task that works as worker `worker` of `bag` and yields its partial by the bag's shape. It declares
 * the shuffle's own dependency (and the shape's side dependencies, such as a join's build side), so the scheduler
 * finds the finished map stages by shuffle id and runs no map task again; it prefers no location, so
 * `spark.locality.wait` never holds it back from an idle slot (see the module README's risk 3).
 */
private[levee] final class HurricaneCloneRDD[K, C, Out](
    sc: SparkContext,
    dep: ShuffleDependency[K, _, C],
    bag: BagKey,
    worker: Int,
    shape: BagShape[K, C, Out]
) extends RDD[Out](sc, dep +: shape.sideDependencies)(ClassTag(classOf[Any])) {

  override protected def getPartitions: Array[Partition] = Array(ClonePartition)

  override protected def getPreferredLocations(split: Partition): Seq[String] = Nil

  override def compute(split: Partition, context: TaskContext): Iterator[Out] = {
    val attempt = context.taskAttemptId()
    context.addTaskCompletionListener[Unit](_ => CoordinatorClient.tell(AttemptEnded(attempt)))
    val metrics = context.taskMetrics().createTempShuffleReadMetrics()
    val counters = TaskCounters.of(context)
    val keys = new KeyReport(shape)
    val runs = new BagWorker(
      bag,
      worker,
      attempt,
      () => context.killTaskIfInterrupted(),
      n => counters.add(TaskCounters.Chunks, n),
      () => keys.load
    ).runs()
    shape
      .countingInto(keys)
      .partial(
        bag.reducePartition, {
          val reads = runs.map(r =>
            HurricaneShuffleManager.readRange(dep, r, bag.reducePartition, context, metrics, shape)
          )
          if (shape.readsRaw) BagWorker.oneAhead(reads) else reads
        },
        context
      )
  }
}
