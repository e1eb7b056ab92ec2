package dev.levee.bench.spark

import scala.collection.mutable
import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted, SparkListenerTaskEnd}

/**
 * What the bench reports about each stage, gathered from Spark's own listener events: wall time (submission to
 * completion), summed task GC time, summed task run time, peak execution memory of any task, spilled bytes and
 * failed task attempts. The figures are the ones the Spark UI shows, so a reader can check them there.
 */
final class StageMetrics extends SparkListener {
  final case class Stage(
      id: Int,
      name: String,
      seconds: Double,
      taskSeconds: Double,
      gcSeconds: Double,
      peakExecutionMemoryBytes: Long,
      spilledBytes: Long,
      failedTasks: Int
  )

  private val completed = mutable.ArrayBuffer.empty[Stage]
  private val failedTasks = mutable.Map.empty[Int, Int].withDefaultValue(0)

  override def onTaskEnd(end: SparkListenerTaskEnd): Unit = synchronized {
    if (!end.taskInfo.successful) failedTasks(end.stageId) += 1
  }

  override def onStageCompleted(event: SparkListenerStageCompleted): Unit = synchronized {
    val info = event.stageInfo
    val m = info.taskMetrics
    val seconds = (for (s <- info.submissionTime; c <- info.completionTime)
      yield (c - s) / 1000.0).getOrElse(0.0)
    completed += Stage(
      info.stageId,
      info.name,
      seconds,
      taskSeconds = if (m == null) 0 else m.executorRunTime / 1000.0,
      gcSeconds = if (m == null) 0 else m.jvmGCTime / 1000.0,
      peakExecutionMemoryBytes = if (m == null) 0 else m.peakExecutionMemory,
      spilledBytes = if (m == null) 0 else m.memoryBytesSpilled + m.diskBytesSpilled,
      failedTasks = failedTasks(info.stageId)
    )
  }

  def stages: Seq[Stage] = synchronized(completed.toList)

  /** The last completed stage: the reduce side of a one-shuffle job. */
  def lastStage: Stage = synchronized {
    completed.lastOption.getOrElse(throw new IllegalStateException("no stage completed"))
  }
}
