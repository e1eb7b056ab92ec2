package dev.levee.it.spark

import java.nio.file.{Files, Path, Paths}

/**
 * The `SPARK_HOME` a local-cluster needs even though no Spark distribution is installed.
 *
 * The in-process Worker reads `SPARK_HOME` from the driver JVM's environment (it cannot be set from
 * inside the JVM, which is why the launcher or the build must export it), puts executor work
 * directories under `SPARK_HOME/work`, and builds each executor's classpath with Spark's launcher,
 * which fails outside test mode unless `SPARK_HOME/jars` exists. An empty `jars/` is enough: the
 * executors get their classes from `spark.executor.extraClassPath` instead.
 */
final case class SparkHome(dir: Path) {

  /** Where workers keep one directory per application and executor, with its stdout/stderr. */
  def workDir: Path = dir.resolve("work")

  def jarsDir: Path = dir.resolve("jars")

  /** Where one application's executors write their stdout and stderr. */
  def executorLogs(appId: String): Path = workDir.resolve(appId)
}

object SparkHome {
  val EnvVar = "SPARK_HOME"

  /**
   * Resolves `SPARK_HOME` from `env` and creates the directory and its empty `jars/` if they are
   * missing (it is a scratch directory, e.g. `target/spark-home` under Maven).
   */
  def prepare(env: collection.Map[String, String]): SparkHome = {
    val raw = env
      .get(EnvVar)
      .map(_.trim)
      .filter(_.nonEmpty)
      .getOrElse(
        throw new IllegalStateException(
          s"$EnvVar is not set in the environment of this JVM. A local-cluster needs it: the in-process " +
            s"Spark worker reads it from the environment to place executor work directories and to build " +
            s"executor classpaths. Export $EnvVar=<a writable directory> before starting the JVM (Maven's " +
            s"scalatest-maven-plugin sets it to target/spark-home); an empty directory is enough."
        )
      )
    val dir = Paths.get(raw)
    if (!dir.isAbsolute) {
      throw new IllegalStateException(
        s"$EnvVar='$raw' is a relative path; the executors resolve it from their own working directory, " +
          s"so it must be absolute"
      )
    }
    val home = SparkHome(dir)
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new IllegalStateException(s"$EnvVar='$raw' exists but is not a directory")
    }
    try Files.createDirectories(home.jarsDir)
    catch {
      case e: java.io.IOException =>
        throw new IllegalStateException(
          s"$EnvVar='$raw': cannot create ${home.jarsDir} (Spark's launcher requires it): ${e.getMessage}",
          e
        )
    }
    home
  }

}
