package dev.levee.it.spark

import org.apache.spark.SparkEnv

/**
 * The JVM a task runs in, as seen from inside the task: lets tests prove that work crossed a
 * process boundary, and fault tests find the process to kill.
 */
final case class TaskJvm(executorId: String, pid: Long, sparkTestMode: Boolean)

object TaskJvm {

  /** Call from inside a task (a closure shipped to an executor). */
  def current(): TaskJvm = {
    val env = SparkEnv.get
    if (env == null)
      throw new IllegalStateException("TaskJvm.current() must be called inside a Spark task")
    TaskJvm(
      executorId = env.executorId,
      pid = ProcessHandle.current().pid(),
      sparkTestMode = sys.props.contains(DriverJvm.TestModeProperty) || env.conf.contains(
        DriverJvm.TestModeProperty
      )
    )
  }
}
