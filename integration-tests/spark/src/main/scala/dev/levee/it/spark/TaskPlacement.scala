package dev.levee.it.spark

/** Whether tasks ran in the JVMs the topology promises. */
object TaskPlacement {
  def problems(
      topology: SparkTopology,
      driverPid: Long,
      executorPids: Map[String, Long],
      tasks: Seq[TaskJvm]
  ): Seq[String] = {
    val testMode = tasks
      .filter(_.sparkTestMode)
      .map(t => s"task in ${t.executorId} ran with spark.testing set")
      .distinct
    val placement = topology match {
      case _: SparkTopology.Local =>
        tasks
          .filter(t => t.pid != driverPid || t.executorId != "driver")
          .map(t =>
            s"task ran in executor ${t.executorId} PID ${t.pid}, expected the driver (PID $driverPid)"
          )
          .distinct
      case _: SparkTopology.LocalCluster =>
        val used = tasks.map(t => t.executorId -> t.pid).toMap
        val inDriver = tasks
          .filter(_.pid == driverPid)
          .map(t => s"task ran in the driver JVM (PID $driverPid)")
          .distinct
        val unknown = used
          .filterNot { case (id, pid) => executorPids.get(id).contains(pid) }
          .map { case (id, pid) =>
            s"task ran in executor $id PID $pid, not an executor JVM of this cluster ($executorPids)"
          }
        val idle = (executorPids.keySet -- used.keySet).map(id =>
          s"executor $id (PID ${executorPids(id)}) ran no task"
        )
        inDriver ++ unknown ++ idle
    }
    testMode ++ placement
  }
}
