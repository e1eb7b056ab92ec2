package dev.levee.bench.spark.hurricane

import scala.collection.mutable

import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted, SparkListenerTaskEnd}

/**
 * The reduce stage of the last ClickLog job (its `collect` stage) as Spark's listener saw it: wall time, each
 * task's duration, spilled bytes and shuffle bytes read, those of clone jobs' tasks included.
 */
final class ReduceStageTimes extends SparkListener {
  final case class Stage(seconds: Double, taskSeconds: Seq[Double], spilledBytes: Long)

  private val taskSeconds = mutable.Map.empty[Int, mutable.Buffer[Double]]
  private var shuffleRead = 0L
  private var last: Option[Stage] = None

  override def onTaskEnd(end: SparkListenerTaskEnd): Unit = synchronized {
    if (end.taskInfo.successful)
      taskSeconds.getOrElseUpdate(
        end.stageId,
        mutable.Buffer.empty
      ) += end.taskInfo.duration / 1000.0
    if (end.taskMetrics != null) shuffleRead += end.taskMetrics.shuffleReadMetrics.totalBytesRead
  }

  override def onStageCompleted(event: SparkListenerStageCompleted): Unit = synchronized {
    val info = event.stageInfo
    if (info.name.startsWith("collect")) {
      val m = info.taskMetrics
      last = Some(
        Stage(
          (for (s <- info.submissionTime; c <- info.completionTime)
            yield (c - s) / 1000.0).getOrElse(0.0),
          taskSeconds.getOrElse(info.stageId, Nil).toSeq,
          if (m == null) 0 else m.memoryBytesSpilled + m.diskBytesSpilled
        )
      )
    }
  }

  /** Forgets everything, before a job. */
  def reset(): Unit = synchronized { last = None; shuffleRead = 0; taskSeconds.clear() }

  /**
   * The last collect stage, waiting up to `timeoutMs` for its event: the listener bus is ordered, so once it is
   * here every task of that job (clone jobs' included) has been counted too.
   */
  def reduceStage(timeoutMs: Long = 30000): Stage = {
    val deadline = System.currentTimeMillis() + timeoutMs
    while (synchronized(last.isEmpty) && System.currentTimeMillis() < deadline) Thread.sleep(10)
    synchronized(
      last.getOrElse(
        throw new IllegalStateException(s"no collect stage completed within $timeoutMs ms")
      )
    )
  }

  def shuffleBytesRead: Long = synchronized(shuffleRead)
}
