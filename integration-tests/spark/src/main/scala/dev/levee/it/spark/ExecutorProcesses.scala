package dev.levee.it.spark

import java.nio.charset.StandardCharsets
import java.nio.file.{Files, Paths}

import scala.jdk.CollectionConverters._
import scala.jdk.OptionConverters._
import scala.util.Try

/**
 * The executor JVMs of one application, found among the driver JVM's child processes: in
 * local-cluster mode the in-process workers fork them, and their command line names the
 * application and the executor id (`CoarseGrainedExecutorBackend --executor-id 0 --app-id app-...`).
 */
object ExecutorProcesses {

  private val BackendClass = "org.apache.spark.executor.CoarseGrainedExecutorBackend"

  /** Live executor JVMs of `appId`, by executor id. */
  def of(appId: String): Map[String, ProcessHandle] =
    ProcessHandle
      .current()
      .children()
      .iterator()
      .asScala
      .flatMap { process =>
        val args = arguments(process)
        if (args.contains(BackendClass) && valueOf(args, "--app-id").contains(appId)) {
          valueOf(args, "--executor-id").map(_ -> process)
        } else {
          None
        }
      }
      .toMap

  /** True if `process` is a Spark executor JVM (of any application). */
  def isExecutor(process: ProcessHandle): Boolean = arguments(process).contains(BackendClass)

  /**
   * A process's arguments. On Linux the JDK reads only the first 4 KB of the command line and
   * reports no arguments at all beyond that, and an executor's classpath alone is far longer, so
   * read `/proc/<pid>/cmdline` in full there.
   */
  private def arguments(process: ProcessHandle): Seq[String] = {
    val procCmdline = Paths.get("/proc", process.pid().toString, "cmdline")
    Try(Files.readAllBytes(procCmdline)).toOption.filter(_.nonEmpty) match {
      case Some(bytes) => new String(bytes, StandardCharsets.UTF_8).split('\u0000').toSeq.drop(1)
      case None        => process.info().arguments().toScala.map(_.toSeq).getOrElse(Seq.empty)
    }
  }

  private def valueOf(args: Seq[String], flag: String): Option[String] = {
    val i = args.indexOf(flag)
    if (i >= 0 && i + 1 < args.size) Some(args(i + 1)) else None
  }
}
