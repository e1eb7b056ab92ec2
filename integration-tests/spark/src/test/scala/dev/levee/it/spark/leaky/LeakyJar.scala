package dev.levee.it.spark.leaky

import java.nio.file.{Files, Path, Paths}

import scala.jdk.CollectionConverters._

/**
 * The packaged leaky-buffer jar a user would pass with `--jars`, found from where the driver loaded
 * the leaky classes: that jar itself (a `-pl it-spark` build takes it from the local repository),
 * or, when the driver has the module's `target/classes` (a reactor build), the jar packaged next to it.
 */
object LeakyJar {

  /** The driver's classpath entry holding the leaky classes. */
  def driverEntry: Path =
    Paths.get(
      Class
        .forName(LeakyExecutorProbe.ManagerClass)
        .getProtectionDomain
        .getCodeSource
        .getLocation
        .toURI
    )

  /**
   * The driver's levee-config entry, if the driver has the unrelocated registry at all (it does when it runs the
   * module's classes directory; the packaged jar carries its own relocated copy).
   */
  def configEntry: Option[Path] =
    try
      Some(
        Paths.get(
          Class
            .forName("dev.levee.config.ConfigRegistry")
            .getProtectionDomain
            .getCodeSource
            .getLocation
            .toURI
        )
      )
    catch { case _: ClassNotFoundException => None }

  /** What a test takes off the executors' classpath so that they see only what the shipped jar brings. */
  def isLeakyOrItsConfig(entry: Path): Boolean =
    entry == driverEntry || configEntry.contains(entry)

  def locate(): Either[String, Path] = {
    val entry = driverEntry
    if (Files.isRegularFile(entry) && entry.toString.endsWith(".jar")) Right(entry)
    else if (Files.isDirectory(entry) && entry.getParent != null) {
      val target = entry.getParent
      val jars = Files
        .list(target)
        .iterator()
        .asScala
        .filter { p =>
          val n = p.getFileName.toString
          n.startsWith("leaky-buffer-spark-") && n.endsWith(".jar") && !n.endsWith(
            "-sources.jar"
          ) && !n.endsWith("-tests.jar")
        }
        .toSeq
      jars match {
        case Seq(jar) => Right(jar)
        case Seq()    =>
          Left(
            s"no packaged leaky-buffer-spark jar in $target (run `./mvnw -pl leaky-buffer-spark package`)"
          )
        case many => Left(s"several leaky-buffer-spark jars in $target: ${many.mkString(", ")}")
      }
    } else
      Left(s"the leaky classes come from $entry, which is neither a jar nor a classes directory")
  }
}
