package dev.levee.bench.spark.hurricane

import scala.collection.mutable

import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted, SparkListenerTaskEnd}

/**
 * The reduce stage of the last ClickLog job (its `collect` stage) as Spark's listener saw it: wall time and each
 * task's duration; and over every task since `reset` (clone jobs' included) the shuffle bytes read and the bytes
 * spilled to disk, in all and by the task that spilled most.
 */
final class ReduceStageTimes extends SparkListener {
  final case class Stage(seconds: Double, taskSeconds: Seq[Double])

  private val taskSeconds = mutable.Map.empty[Int, mutable.Buffer[Double]]
  private var shuffleRead = 0L
  private var spilled = 0L
  private var largestSpill = 0L
  private var last: Option[Stage] = None

  override def onTaskEnd(end: SparkListenerTaskEnd): Unit = synchronized {
    if (end.taskInfo.successful)
      taskSeconds.getOrElseUpdate(
        end.stageId,
        mutable.Buffer.empty
      ) += end.taskInfo.duration / 1000.0
    if (end.taskMetrics != null) {
      shuffleRead += end.taskMetrics.shuffleReadMetrics.totalBytesRead
      spilled += end.taskMetrics.diskBytesSpilled
      largestSpill = math.max(largestSpill, end.taskMetrics.diskBytesSpilled)
    }
  }

  override def onStageCompleted(event: SparkListenerStageCompleted): Unit = synchronized {
    val info = event.stageInfo
    if (info.name.startsWith("collect")) {
      last = Some(
        Stage(
          (for (s <- info.submissionTime; c <- info.completionTime)
            yield (c - s) / 1000.0).getOrElse(0.0),
          taskSeconds.getOrElse(info.stageId, Nil).toSeq
        )
      )
    }
  }

  /** Forgets everything, before a job. */
  def reset(): Unit = synchronized {
    last = None; shuffleRead = 0; spilled = 0; largestSpill = 0; taskSeconds.clear()
  }

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

  /** Bytes every task since `reset` spilled to disk. */
  def spilledBytes: Long = synchronized(spilled)

  /** The most one task since `reset` spilled to disk: the hot partition's task, or its owner or a clone. */
  def largestTaskSpilledBytes: Long = synchronized(largestSpill)
}
