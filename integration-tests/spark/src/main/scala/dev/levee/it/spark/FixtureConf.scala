package dev.levee.it.spark

import java.io.File

import scala.util.Try

import org.apache.spark.SparkConf

/**
 * The SparkConf a fixture starts with: the topology's master, the settings that make executor JVMs
 * start without a Spark distribution, then the caller's settings (shuffle manager, serializer,
 * executor memory, executor JVM options, ...).
 *
 * Caller settings win, except for the two lists the fixture must extend rather than replace:
 * `spark.executor.extraClassPath` (caller entries come first, then the driver's classpath) and
 * `spark.executor.extraJavaOptions` (the driver's `java.io.tmpdir` first, so a caller's own
 * `-Djava.io.tmpdir` still wins).
 */
object FixtureConf {

  val ExecutorClassPathKey = "spark.executor.extraClassPath"
  val ExecutorJavaOptionsKey = "spark.executor.extraJavaOptions"
  val ExecutorScalaVersionKey = "spark.executorEnv.SPARK_SCALA_VERSION"
  val ExecutorMemoryKey = "spark.executor.memory"
  val ExecutorCoresKey = "spark.executor.cores"
  val CoresMaxKey = "spark.cores.max"

  /** Default executor heap in standalone mode (Spark's own default). */
  private val DefaultExecutorMemoryMb = 1024L

  /** Inputs that come from the driver JVM rather than from the caller. */
  final case class DriverSide(classPath: Seq[String], tmpDir: String, scalaBinaryVersion: String)

  object DriverSide {
    def current(): DriverSide = DriverSide(
      classPath = ExecutorClassPath.current(),
      tmpDir = new File(System.getProperty("java.io.tmpdir")).getAbsolutePath,
      scalaBinaryVersion =
        scala.util.Properties.versionNumberString.split('.').take(2).mkString(".")
    )
  }

  def build(
      topology: SparkTopology,
      appName: String,
      settings: Map[String, String],
      driver: => DriverSide
  ): SparkConf = {
    settings.get(DriverJvm.TestModeProperty).foreach { v =>
      throw new IllegalArgumentException(
        s"${DriverJvm.TestModeProperty}=$v is not allowed: Spark's test mode changes memory accounting, " +
          s"and the fixture ships the classpath to executors without it"
      )
    }
    val conf = new SparkConf(loadDefaults = false)
      .setMaster(topology.master)
      .setAppName(appName)
      // No UI: saves a Jetty server and a port per context; a caller can turn it back on.
      .set("spark.ui.enabled", "false")
    topology match {
      case _: SparkTopology.Local =>
        conf.setAll(settings)
      case cluster: SparkTopology.LocalCluster =>
        val side = driver
        // Without it Spark's launcher looks for a Spark source build to guess the Scala version.
        conf.set(ExecutorScalaVersionKey, side.scalaBinaryVersion)
        conf.setAll(settings -- Seq(ExecutorClassPathKey, ExecutorJavaOptionsKey))
        val classPath = settings
          .get(ExecutorClassPathKey)
          .toSeq
          .flatMap(_.split(File.pathSeparator))
          .filter(_.nonEmpty) ++
          side.classPath
        conf.set(ExecutorClassPathKey, classPath.distinct.mkString(File.pathSeparator))
        val javaOptions =
          (s"-Djava.io.tmpdir=${side.tmpDir}" +: settings.get(ExecutorJavaOptionsKey).toSeq)
            .mkString(" ")
        conf.set(ExecutorJavaOptionsKey, javaOptions)
        expectedExecutors(cluster, conf) // fail now, not after a registration timeout
    }
    conf
  }

  /**
   * How many executor JVMs the standalone master will start, or an error if it can start none
   * (it would otherwise wait silently for a worker big enough).
   */
  def expectedExecutors(topology: SparkTopology, conf: SparkConf): Int = topology match {
    case _: SparkTopology.Local                                                 => 0
    case SparkTopology.LocalCluster(workers, coresPerWorker, memoryPerWorkerMb) =>
      val memoryMb = sizeInMb(conf, ExecutorMemoryKey, DefaultExecutorMemoryMb)
      if (memoryMb > memoryPerWorkerMb) {
        throw new IllegalArgumentException(
          s"$ExecutorMemoryKey=${conf.get(ExecutorMemoryKey, "unset")} ($memoryMb MB) exceeds the $memoryPerWorkerMb MB each " +
            s"worker of ${topology.master} offers, so no executor could start; allowed: at most ${memoryPerWorkerMb}m"
        )
      }
      val executorCores = conf.getOption(ExecutorCoresKey).map(positiveInt(ExecutorCoresKey, _))
      executorCores.filter(_ > coresPerWorker).foreach { c =>
        throw new IllegalArgumentException(
          s"$ExecutorCoresKey=$c exceeds the $coresPerWorker core(s) each worker of ${topology.master} offers; " +
            s"allowed: 1..$coresPerWorker"
        )
      }
      // Standalone mode: without spark.executor.cores one executor per worker takes all its cores.
      val perWorker = executorCores match {
        case None    => 1
        case Some(c) => math.min(coresPerWorker / c, (memoryPerWorkerMb / memoryMb).toInt)
      }
      val cores = executorCores.getOrElse(coresPerWorker)
      val byCoresMax =
        conf.getOption(CoresMaxKey).map(positiveInt(CoresMaxKey, _) / cores).getOrElse(Int.MaxValue)
      val total = math.min(workers * perWorker, byCoresMax)
      if (total < 1) {
        throw new IllegalArgumentException(
          s"$CoresMaxKey=${conf.get(CoresMaxKey)} is smaller than one executor's $cores core(s); allowed: >= $cores"
        )
      }
      total
  }

  private def sizeInMb(conf: SparkConf, key: String, defaultMb: Long): Long =
    conf.getOption(key) match {
      case None      => defaultMb
      case Some(raw) =>
        Try(conf.getSizeAsMb(key))
          .filter(_ > 0)
          .getOrElse(
            throw new IllegalArgumentException(
              s"$key='$raw' is not a positive size; allowed: a number with an optional unit, e.g. 512m or 1g"
            )
          )
    }

  private def positiveInt(key: String, raw: String): Int =
    raw.trim.toIntOption
      .filter(_ > 0)
      .getOrElse(
        throw new IllegalArgumentException(
          s"$key='$raw' is not allowed: expected a positive integer"
        )
      )
}
