package dev.levee.it.spark

/**
 * Where a fixture's tasks run: in the driver JVM (`local[n]`) or in executor JVMs started by an
 * in-process standalone master and workers (`local-cluster[workers,cores,memory]`).
 */
sealed trait SparkTopology {

  /** The `spark.master` URL for this topology. */
  def master: String
}

object SparkTopology {

  /** Tasks run on `threads` threads of the driver JVM: fast, but nothing crosses a process boundary. */
  final case class Local(threads: Int) extends SparkTopology {
    require(threads >= 1, s"local threads must be >= 1, got $threads")
    override def master: String = s"local[$threads]"
  }

  /**
   * A standalone master and `workers` workers inside the driver JVM; each worker launches its
   * executors as separate JVMs, so shuffle data, serialization and the plugins' executor-side
   * code paths are real.
   */
  final case class LocalCluster(workers: Int, coresPerWorker: Int, memoryPerWorkerMb: Int)
      extends SparkTopology {
    require(workers >= 1, s"local-cluster workers must be >= 1, got $workers")
    require(
      coresPerWorker >= 1,
      s"local-cluster cores per worker must be >= 1, got $coresPerWorker"
    )
    require(
      memoryPerWorkerMb >= 1,
      s"local-cluster memory per worker (MB) must be >= 1, got $memoryPerWorkerMb"
    )
    override def master: String = s"local-cluster[$workers,$coresPerWorker,$memoryPerWorkerMb]"
  }

  /** Two driver threads: the unit-test default. */
  val LocalTwoThreads: Local = Local(2)

  /** Two executor JVMs with one core and 1 GB each: the integration-test default. */
  val TwoExecutorJvms: LocalCluster =
    LocalCluster(workers = 2, coresPerWorker = 1, memoryPerWorkerMb = 1024)

  private val LocalPattern = """local\[(\d+)\]""".r
  private val LocalClusterPattern = """local-cluster\[\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\]""".r

  /** Parses a master URL given on a command line (`local[2]`, `local-cluster[2,1,1024]`). */
  def parse(master: String): SparkTopology = master.trim match {
    case LocalPattern(threads)        => Local(threads.toInt)
    case LocalClusterPattern(w, c, m) => LocalCluster(w.toInt, c.toInt, m.toInt)
    case other                        =>
      throw new IllegalArgumentException(
        s"unsupported Spark master '$other': allowed are local[N] and local-cluster[workers,coresPerWorker,memoryPerWorkerMb]"
      )
  }
}
