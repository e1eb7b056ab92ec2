package dev.levee.bench.spark.leaky

import java.util.concurrent.TimeoutException

import scala.collection.mutable

import org.apache.spark.scheduler.{
  SparkListener,
  SparkListenerJobEnd,
  SparkListenerStageCompleted,
  SparkListenerTaskEnd
}

/**
 * Per-stage figures of one job as Spark's task metrics give them (what the UI and event log show): stage wall time,
 * summed task run and GC time, the largest peak execution memory of any single task (stage-level metrics would sum
 * it over tasks), spilled bytes and failed attempts. Listener events are asynchronous; [[awaitJobEnds]] waits until
 * Spark has delivered a job's end, which follows its stages' and tasks' events.
 */
final class ReduceStageListener extends SparkListener {

  final case class Stage(
      id: Int,
      seconds: Double,
      taskSeconds: Double,
      gcSeconds: Double,
      maxTaskPeakMemoryBytes: Long,
      spilledBytes: Long,
      failedTasks: Int,
      times: ReduceStageListener.TaskTimes = ReduceStageListener.TaskTimes.Zero
  ) {
    def gcShare: Double = if (taskSeconds <= 0) 0 else gcSeconds / taskSeconds
  }

  private final class Tasks {
    var runMs = 0L
    var cpuNs = 0L
    var fetchWaitMs = 0L
    var deserializeMs = 0L
    var gcMs = 0L
    var peak = 0L
    var spilled = 0L
    var failed = 0
  }

  private val tasks = mutable.Map.empty[Int, Tasks]
  private val completed = mutable.ArrayBuffer.empty[Stage]
  private var jobEnds = 0

  override def onTaskEnd(end: SparkListenerTaskEnd): Unit = synchronized {
    val t = tasks.getOrElseUpdate(end.stageId, new Tasks)
    if (!end.taskInfo.successful) t.failed += 1
    val m = end.taskMetrics
    if (m != null) {
      t.runMs += m.executorRunTime
      t.cpuNs += m.executorCpuTime
      t.fetchWaitMs += m.shuffleReadMetrics.fetchWaitTime
      t.deserializeMs += m.executorDeserializeTime
      t.gcMs += m.jvmGCTime
      t.peak = math.max(t.peak, m.peakExecutionMemory)
      t.spilled += m.memoryBytesSpilled + m.diskBytesSpilled
    }
  }

  override def onStageCompleted(event: SparkListenerStageCompleted): Unit = synchronized {
    val info = event.stageInfo
    val t = tasks.getOrElse(info.stageId, new Tasks)
    val seconds = (for (s <- info.submissionTime; c <- info.completionTime)
      yield (c - s) / 1000.0).getOrElse(0.0)
    completed += Stage(
      info.stageId,
      seconds,
      t.runMs / 1000.0,
      t.gcMs / 1000.0,
      t.peak,
      t.spilled,
      t.failed,
      ReduceStageListener.TaskTimes(
        t.runMs / 1000.0,
        t.cpuNs / 1e9,
        t.fetchWaitMs / 1000.0,
        t.deserializeMs / 1000.0
      )
    )
  }

  override def onJobEnd(end: SparkListenerJobEnd): Unit = synchronized {
    jobEnds += 1
    notifyAll()
  }

  def jobEndsSeen: Int = synchronized(jobEnds)

  def stagesSeen: Int = synchronized(completed.size)

  def awaitJobEnds(count: Int, timeoutMs: Long): Unit = synchronized {
    val deadline = System.currentTimeMillis() + timeoutMs
    while (jobEnds < count) {
      val left = deadline - System.currentTimeMillis()
      if (left <= 0)
        throw new TimeoutException(s"saw $jobEnds of $count job ends after $timeoutMs ms")
      wait(left)
    }
  }

  /** The stage with the highest id among those completed after the first `skip`: a job's reduce stage. */
  def lastStageAfter(skip: Int): Option[Stage] = synchronized(
    completed.drop(skip).maxByOption(_.id)
  )
}

object ReduceStageListener {

  /**
   * Where a stage's task time went, summed over its tasks: running (Spark's executorRunTime), on a CPU
   * (executorCpuTime: the task's thread only), blocked waiting for shuffle blocks, and deserializing the task. What
   * ran but not on the CPU nor waiting for blocks is the rest of the I/O and the task's other waits.
   */
  final case class TaskTimes(
      runSeconds: Double,
      cpuSeconds: Double,
      fetchWaitSeconds: Double,
      deserializeSeconds: Double
  )

  object TaskTimes {
    val Zero: TaskTimes = TaskTimes(0, 0, 0, 0)
  }
}
