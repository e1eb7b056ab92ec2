package dev.levee.it.spark.leaky

import java.util.concurrent.TimeoutException

import scala.collection.mutable

import org.apache.spark.{ExceptionFailure, Success}
import org.apache.spark.scheduler.{SparkListener, SparkListenerJobEnd, SparkListenerTaskEnd}

/**
 * What Spark's own task metrics said about every task attempt, as the event log and UI see them.
 * Listener events arrive asynchronously, so [[awaitJobs]] waits for the job-end events (which Spark
 * posts after the job's task-end events) before a test reads them.
 */
final class TaskEndRecorder extends SparkListener {

  final case class Attempt(
      stageId: Int,
      partition: Int,
      attemptNumber: Int,
      successful: Boolean,
      failure: String,
      memoryBytesSpilled: Long,
      diskBytesSpilled: Long,
      peakExecutionMemory: Long
  )

  private val attempts = mutable.ArrayBuffer.empty[Attempt]
  private var jobsEnded = 0

  override def onTaskEnd(end: SparkListenerTaskEnd): Unit = synchronized {
    val m = end.taskMetrics
    val failure = end.reason match {
      case Success             => ""
      case e: ExceptionFailure => e.description
      case other               => other.toString
    }
    attempts += Attempt(
      end.stageId,
      end.taskInfo.partitionId,
      end.taskInfo.attemptNumber,
      end.taskInfo.successful,
      failure,
      if (m == null) 0 else m.memoryBytesSpilled,
      if (m == null) 0 else m.diskBytesSpilled,
      if (m == null) 0 else m.peakExecutionMemory
    )
  }

  override def onJobEnd(end: SparkListenerJobEnd): Unit = synchronized {
    jobsEnded += 1
    notifyAll()
  }

  def jobsSeen: Int = synchronized(jobsEnded)

  /** Blocks until `count` jobs have ended in total, or fails after `timeoutMs`. */
  def awaitJobs(count: Int, timeoutMs: Long = 30000): Unit = synchronized {
    val deadline = System.currentTimeMillis() + timeoutMs
    while (jobsEnded < count) {
      val left = deadline - System.currentTimeMillis()
      if (left <= 0)
        throw new TimeoutException(
          s"listener saw $jobsEnded of $count job ends after $timeoutMs ms"
        )
      wait(left)
    }
  }

  def all: Seq[Attempt] = synchronized(attempts.toList)

  /**
   * Runs `action`, which runs `jobs` jobs, and returns its result with the task attempts of those
   * jobs (no other jobs may run meanwhile: tests of one suite run one after another).
   */
  def during[T](jobs: Int = 1)(action: => T): (T, Seq[Attempt]) = {
    val (jobsBefore, attemptsBefore) = synchronized((jobsEnded, attempts.size))
    val result = action
    awaitJobs(jobsBefore + jobs)
    (result, synchronized(attempts.drop(attemptsBefore).toList))
  }
}
