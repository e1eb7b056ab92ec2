package dev.levee.it.spark

/**
 * Checks from a plain `java -cp` JVM that a cluster starts and runs tasks where it should:
 * `java <Spark's --add-opens> -cp <classpath> dev.levee.it.spark.LocalClusterProbe [master]`
 * with `SPARK_HOME` exported for local-cluster. Prints startup times and the JVM of every task;
 * exits 1 if the tasks did not run in separate executor JVMs (or, on local[n], in the driver).
 */
object LocalClusterProbe {

  def main(args: Array[String]): Unit = {
    val topology =
      SparkTopology.parse(args.headOption.getOrElse(SparkTopology.TwoExecutorJvms.master))
    val problems = SparkCluster.using(topology, appName = "levee-local-cluster-probe") { cluster =>
      val partitions = 16
      val jvms = cluster.sc
        .parallelize(1 to partitions, partitions)
        .mapPartitions(_ => Iterator(TaskJvm.current()))
        .collect()
        .toSeq
      println(s"master:        ${topology.master}")
      println(s"startup:       ${cluster.startup}")
      println(s"driver PID:    ${cluster.driverPid}")
      println(
        s"executor PIDs: ${cluster.executorPids.toSeq.sorted.map { case (id, pid) => s"$id=$pid" }.mkString(", ")}"
      )
      jvms.groupBy(identity).toSeq.sortBy(_._1.executorId).foreach { case (jvm, tasks) =>
        println(s"tasks in executor ${jvm.executorId} (PID ${jvm.pid}): ${tasks.size}")
      }
      TaskPlacement.problems(topology, cluster.driverPid, cluster.executorPids, jvms)
    }
    problems.foreach(p => System.err.println(s"FAILED: $p"))
    if (problems.nonEmpty) sys.exit(1)
  }
}
