package org.apache.spark.shuffle.levee

import scala.concurrent.ExecutionContext
import scala.util.Try

import dev.levee.hurricane.driver.CloneLauncher
import dev.levee.hurricane.protocol.BagKey
import org.apache.spark.{MapOutputTrackerMaster, ShuffleDependency, SparkContext, SparkEnv}
import org.apache.spark.storage.StorageLevel

/** Starts each clone as a one-task job whose partial is cached, so the owner can fetch it from any executor. */
private[levee] final class SparkCloneLauncher(sc: SparkContext) extends CloneLauncher {

  override def launch(bag: BagKey, worker: Int, ended: Boolean => Unit): Option[(Int, () => Unit)] =
    HurricaneShuffleManager.dependency(bag.shuffleId).flatMap { dep =>
      Try {
        val typed = dep.asInstanceOf[ShuffleDependency[Any, Any, Any]]
        val shape = HurricaneShuffleManager
          .shapeOf(typed)
          .getOrElse(throw new IllegalStateException(s"$bag: a clone of a pass-through read"))
        val rdd = new HurricaneCloneRDD(sc, typed, bag, worker, shape)
        // Serialized and spillable: a partial survives memory pressure, and a lost one is replayed by the owner.
        rdd.persist(StorageLevel.MEMORY_AND_DISK_SER)
        val previous = sc.getLocalProperty(SparkContext.SPARK_JOB_DESCRIPTION)
        sc.setLocalProperty(SparkContext.SPARK_JOB_DESCRIPTION, s"Hurricane clone $worker of $bag")
        val job =
          try
            sc.submitJob(
              rdd,
              (_: Iterator[Any]) => (),
              Seq(0),
              (_: Int, _: Unit) => (),
              ()
            )
          finally sc.setLocalProperty(SparkContext.SPARK_JOB_DESCRIPTION, previous)
        job.onComplete(result => ended(result.isSuccess))(ExecutionContext.parasitic)
        (rdd.id, () => job.cancel())
      }.toOption
    }

  override def release(rddId: Int): Unit =
    sc.getPersistentRDDs.get(rddId).foreach(_.unpersist(blocking = false))

  override def partitionBytes(shuffleId: Int): Option[Array[Long]] =
    for {
      dep <- HurricaneShuffleManager.dependency(shuffleId)
      tracker <- Option(SparkEnv.get).map(_.mapOutputTracker).collect {
        case m: MapOutputTrackerMaster => m
      }
      stats <- Try(tracker.getStatistics(dep)).toOption
    } yield stats.bytesByPartitionId
}

/** What the driver plugin (outside Spark's package) may reach of the framework side. */
object HurricaneDriverSide {
  def launcher(sc: SparkContext): CloneLauncher = new SparkCloneLauncher(sc)
}
