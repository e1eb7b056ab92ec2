package dev.levee.it.spark

import org.apache.spark.launcher.JavaModuleOptions

/**
 * Preconditions on the JVM that hosts the driver, checked before Spark starts so that a
 * misconfigured launcher fails with the missing flag named instead of an InaccessibleObjectException
 * deep inside the first job. (Executors get Spark's flags from Spark itself.)
 */
object DriverJvm {

  private val JavaBaseOpen = """--add-opens=java\.base/([\w.]+)=ALL-UNNAMED""".r

  /**
   * The `java.base` packages Spark's own launcher opens to its classes (read from the one-string form, which
   * Spark 3.5 has too; the array form is new in 4.0).
   */
  def requiredOpenPackages: Seq[String] =
    JavaModuleOptions.defaultModuleOptions().trim.split("\\s+").toSeq.collect {
      case JavaBaseOpen(pkg) => pkg
    }

  def requireSparkModuleAccess(): Unit = {
    val javaBase = classOf[Object].getModule
    val self = getClass.getModule
    val missing = requiredOpenPackages.filterNot(pkg => javaBase.isOpen(pkg, self))
    if (missing.nonEmpty) {
      throw new IllegalStateException(
        s"the driver JVM does not open ${missing.mkString(", ")} of java.base to the classpath, which " +
          s"Spark needs; start it with ${missing.map(p => s"--add-opens=java.base/$p=ALL-UNNAMED").mkString(" ")} " +
          s"(Spark's full set: ${JavaModuleOptions.defaultModuleOptions()})"
      )
    }
  }

  val TestModeProperty = "spark.testing"
  val TestModeEnvVar = "SPARK_TESTING"

  /**
   * Spark's test mode changes what is measured: no reserved system memory in the unified memory
   * manager, extra task-metric accumulators, different worker directories. The fixture stands in
   * for a real cluster in benchmarks, so it refuses to start in that mode rather than quietly
   * producing numbers no user would see.
   */
  def requireNotInSparkTestMode(
      env: collection.Map[String, String],
      props: collection.Map[String, String]
  ): Unit = {
    props.get(TestModeProperty).foreach { v =>
      throw new IllegalStateException(
        s"system property $TestModeProperty=$v turns on Spark's test mode, which changes memory accounting; " +
          s"unset it (the fixture ships the classpath to executors itself)"
      )
    }
    env.get(TestModeEnvVar).foreach { v =>
      throw new IllegalStateException(
        s"environment variable $TestModeEnvVar=$v turns on Spark's test mode (SparkContext copies it to " +
          s"$TestModeProperty), which changes memory accounting; unset it"
      )
    }
  }
}
