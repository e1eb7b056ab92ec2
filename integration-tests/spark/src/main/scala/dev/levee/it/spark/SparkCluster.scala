package dev.levee.it.spark

import java.util.concurrent.TimeUnit

import scala.concurrent.duration._
import scala.util.control.NonFatal

import org.apache.spark.SparkContext
import org.slf4j.LoggerFactory

/**
 * A running SparkContext on `local[n]` or `local-cluster[...]`, ready for jobs: on local-cluster,
 * every executor JVM has registered before `start` returns. `close()` stops the context and waits
 * until the executor JVMs have exited, so no process outlives the test or benchmark that started it.
 *
 * Works the same under Maven and from a plain `java -cp` launcher: the executors get the driver's
 * classpath through `spark.executor.extraClassPath` rather than through Spark's test mode, which
 * would change memory accounting (see [[DriverJvm.requireNotInSparkTestMode]]).
 */
final class SparkCluster private (
    val topology: SparkTopology,
    val sc: SparkContext,
    val startup: SparkCluster.StartupTimes,
    initialExecutors: Map[String, ProcessHandle],
    stopTimeout: FiniteDuration
) extends AutoCloseable {

  @volatile private var closed = false

  def driverPid: Long = ProcessHandle.current().pid()

  /**
   * Executor JVM PIDs by executor id: empty on `local[n]`, where tasks run in the driver. Reflects
   * executors the workers started later too (after one was killed, for example).
   */
  def executorPids: Map[String, Long] =
    if (closed) Map.empty
    else ExecutorProcesses.of(sc.applicationId).map { case (id, p) => id -> p.pid() }

  def isClosed: Boolean = closed

  /** Stops the context and waits for its executor JVMs to exit; idempotent. */
  override def close(): Unit = synchronized {
    if (!closed) {
      closed = true
      SparkCluster.stopAndReap(sc, initialExecutors, stopTimeout)
    }
  }

  override def toString: String =
    s"SparkCluster(${topology.master}, app ${sc.applicationId}, $startup)"
}

object SparkCluster {

  private val log = LoggerFactory.getLogger(classOf[SparkCluster])

  /** Executor JVMs took 15-40 s to register on a loaded 2-core machine; leave room above that. */
  val DefaultRegistrationTimeout: FiniteDuration = 120.seconds

  /** Workers kill executors asynchronously after the context stops. */
  val DefaultStopTimeout: FiniteDuration = 30.seconds

  /** How long the context took to construct, then how long executors took to register after that. */
  final case class StartupTimes(context: FiniteDuration, executorRegistration: FiniteDuration) {
    def total: FiniteDuration = context + executorRegistration
    override def toString: String =
      s"context ${context.toMillis} ms + executor registration ${executorRegistration.toMillis} ms"
  }

  /**
   * Starts a context on `topology` with `settings` applied on top of the fixture's (see
   * [[FixtureConf]]) and, on local-cluster, waits for every executor to register. On any failure
   * everything started so far is stopped before the exception propagates.
   */
  def start(
      topology: SparkTopology,
      settings: Map[String, String] = Map.empty,
      appName: String = "levee-it",
      registrationTimeout: FiniteDuration = DefaultRegistrationTimeout,
      stopTimeout: FiniteDuration = DefaultStopTimeout
  ): SparkCluster = {
    DriverJvm.requireSparkModuleAccess()
    DriverJvm.requireNotInSparkTestMode(sys.env, sys.props)
    val home = topology match {
      case _: SparkTopology.LocalCluster => Some(SparkHome.prepare(sys.env))
      case _: SparkTopology.Local        => None
    }
    val conf = FixtureConf.build(topology, appName, settings, FixtureConf.DriverSide.current())
    val expected = FixtureConf.expectedExecutors(topology, conf)

    val t0 = System.nanoTime()
    val sc = new SparkContext(conf)
    val t1 = System.nanoTime()
    val executors =
      try
        home.fold(Map.empty[String, ProcessHandle])(h =>
          ExecutorRegistration.await(sc, expected, registrationTimeout, h)
        )
      catch {
        case NonFatal(e) =>
          try stopAndReap(sc, Map.empty, stopTimeout)
          catch { case NonFatal(stopError) => e.addSuppressed(stopError) }
          throw e
      }
    val startup = StartupTimes(nanos(t1 - t0), nanos(System.nanoTime() - t1))
    val cluster = new SparkCluster(topology, sc, startup, executors, stopTimeout)
    log.info(
      s"Started ${topology.master} (app ${sc.applicationId}): $startup; executor PIDs ${executors.map { case (id, p) => s"$id=${p.pid()}" }.mkString(", ")}; driver PID ${cluster.driverPid}"
    )
    cluster
  }

  /** Runs `body` on a fresh cluster and always closes it, also when `body` throws. */
  def using[T](
      topology: SparkTopology,
      settings: Map[String, String] = Map.empty,
      appName: String = "levee-it"
  )(body: SparkCluster => T): T = {
    val cluster = start(topology, settings, appName)
    var failure: Throwable = null
    try body(cluster)
    catch {
      case e: Throwable =>
        failure = e
        throw e
    } finally {
      try cluster.close()
      catch {
        case NonFatal(closeError) if failure != null => failure.addSuppressed(closeError)
      }
    }
  }

  /**
   * Stops the context, then waits until its executor JVMs (the known ones plus any found now)
   * have exited. Any left after the timeout are killed and reported: on a shared machine a stray
   * 1 GB executor is worse than a failed test.
   */
  private def stopAndReap(
      sc: SparkContext,
      known: Map[String, ProcessHandle],
      timeout: FiniteDuration
  ): Unit = {
    val appId = sc.applicationId
    val executors = (known ++ ExecutorProcesses.of(appId)).values.toSeq.distinctBy(_.pid())
    try sc.stop()
    finally {
      val deadline = timeout.fromNow
      val survivors = executors.filterNot(exitsBefore(_, deadline))
      if (survivors.nonEmpty) {
        survivors.foreach(_.destroyForcibly())
        throw new IllegalStateException(
          s"executor JVMs ${survivors.map(_.pid()).mkString(", ")} of $appId were still running " +
            s"${timeout.toSeconds} s after the context stopped; killed them"
        )
      }
    }
  }

  private def exitsBefore(process: ProcessHandle, deadline: Deadline): Boolean =
    try {
      process.onExit().get(math.max(deadline.timeLeft.toMillis, 0L), TimeUnit.MILLISECONDS)
      true
    } catch {
      case _: java.util.concurrent.TimeoutException => !process.isAlive
    }

  private def nanos(n: Long): FiniteDuration = Duration.fromNanos(n).toMillis.millis
}
