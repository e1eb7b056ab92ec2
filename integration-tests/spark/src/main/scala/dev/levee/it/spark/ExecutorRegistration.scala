package dev.levee.it.spark

import scala.concurrent.duration._

import org.apache.spark.SparkContext

/**
 * Waits until a local-cluster's executors have registered with the driver. The SparkContext
 * constructor returns once the application is submitted, not when executors exist; jobs started
 * earlier run on whichever executor comes up first, and a smoke test meant to cross two JVMs could
 * pass on one.
 */
object ExecutorRegistration {

  private val PollInterval = 100.millis

  /**
   * Blocks until `expected` executors are registered and their JVMs are visible as child
   * processes; returns those processes by executor id.
   */
  def await(
      sc: SparkContext,
      expected: Int,
      timeout: FiniteDuration,
      home: SparkHome
  ): Map[String, ProcessHandle] = {
    val deadline = timeout.fromNow
    var processes = Map.empty[String, ProcessHandle]
    var registered = 0
    while ({
      // The status tracker lists the driver as an executor too.
      registered = sc.statusTracker.getExecutorInfos.length - 1
      processes = ExecutorProcesses.of(sc.applicationId)
      registered < expected || processes.size < expected
    }) {
      if (deadline.isOverdue()) {
        throw new IllegalStateException(
          s"only $registered of $expected executors registered, and ${processes.size} of their JVMs were found among " +
            s"the driver's child processes, within " +
            s"${timeout.toSeconds} s on ${sc.master}; executor logs: ${home.executorLogs(sc.applicationId)}/<executorId>/stderr " +
            s"(raise the registration timeout if the machine is busy)"
        )
      }
      Thread.sleep(PollInterval.toMillis)
    }
    processes
  }
}
