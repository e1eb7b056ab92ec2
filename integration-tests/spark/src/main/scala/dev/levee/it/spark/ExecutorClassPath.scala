package dev.levee.it.spark

import java.io.File
import java.nio.file.Paths

/**
 * The classpath handed to local-cluster executors: this JVM's own, entry by entry, made absolute.
 *
 * Executors start in their worker's work directory, so a relative entry (as a `java -cp` launcher
 * may pass) would silently point elsewhere there. This is the alternative to Spark's test mode,
 * which copies `java.class.path` to executors only when `spark.testing` is set.
 */
object ExecutorClassPath {

  def of(javaClassPath: String, workingDir: String): Seq[String] =
    javaClassPath
      .split(File.pathSeparator)
      .iterator
      .map(_.trim)
      .filter(_.nonEmpty)
      .map { entry =>
        // "dir/*" is a JVM wildcard, not a path; keep the star and absolutize the directory.
        if (entry == "*" || entry.endsWith(File.separator + "*")) {
          val base = entry.stripSuffix("*")
          Paths
            .get(workingDir)
            .resolve(if (base.isEmpty) "." else base)
            .normalize()
            .toString + File.separator + "*"
        } else {
          Paths.get(workingDir).resolve(entry).normalize().toString
        }
      }
      .distinct
      .toSeq

  /** This JVM's classpath, absolute. */
  def current(): Seq[String] = {
    val cp = System.getProperty("java.class.path", "")
    if (cp.trim.isEmpty) {
      throw new IllegalStateException(
        "java.class.path is empty: local-cluster executors load their classes from the driver JVM's " +
          "classpath, so start the driver with -cp <jars and class directories>"
      )
    }
    of(cp, System.getProperty("user.dir"))
  }
}
