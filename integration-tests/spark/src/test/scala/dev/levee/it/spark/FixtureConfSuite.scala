package dev.levee.it.spark

import java.io.File
import java.nio.file.Files

import org.scalatest.funsuite.AnyFunSuite

/** The configuration the fixture derives, without starting Spark. */
class FixtureConfSuite extends AnyFunSuite {

  private val driver = FixtureConf.DriverSide(Seq("/abs/a.jar", "/abs/classes"), "/abs/tmp", "2.13")
  private val cluster = SparkTopology.TwoExecutorJvms

  private def build(settings: (String, String)*) =
    FixtureConf.build(cluster, "t", settings.toMap, driver)

  test("master URLs, and parsing them back") {
    assert(SparkTopology.LocalTwoThreads.master == "local[2]")
    assert(cluster.master == "local-cluster[2,1,1024]")
    assert(SparkTopology.parse("local-cluster[2, 1, 1024]") == cluster)
    assert(SparkTopology.parse("local[4]") == SparkTopology.Local(4))
    val e = intercept[IllegalArgumentException](SparkTopology.parse("yarn"))
    assert(
      e.getMessage.contains("'yarn'") && e.getMessage.contains(
        "local-cluster[workers,coresPerWorker,memoryPerWorkerMb]"
      )
    )
  }

  test(
    "local-cluster executors get the driver classpath after the caller's, the Scala version and the driver's tmpdir"
  ) {
    val conf = build(
      "spark.executor.extraClassPath" -> s"/plugin.jar${File.pathSeparator}/abs/a.jar",
      "spark.executor.extraJavaOptions" -> "-XX:+UseParallelGC",
      "spark.serializer" -> "org.apache.spark.serializer.KryoSerializer"
    )
    assert(conf.get("spark.master") == "local-cluster[2,1,1024]")
    assert(
      conf.get("spark.executor.extraClassPath") == Seq("/plugin.jar", "/abs/a.jar", "/abs/classes")
        .mkString(File.pathSeparator)
    )
    assert(
      conf.get("spark.executor.extraJavaOptions") == "-Djava.io.tmpdir=/abs/tmp -XX:+UseParallelGC"
    )
    assert(conf.get("spark.executorEnv.SPARK_SCALA_VERSION") == "2.13")
    assert(conf.get("spark.serializer") == "org.apache.spark.serializer.KryoSerializer")
    assert(!conf.contains("spark.testing"))
  }

  test("local[n] gets only the master, the app name and the caller's settings") {
    val conf = FixtureConf.build(
      SparkTopology.Local(2),
      "t",
      Map("spark.ui.enabled" -> "true"),
      fail("local mode must not need the driver's classpath")
    )
    assert(conf.get("spark.master") == "local[2]")
    assert(conf.get("spark.ui.enabled") == "true")
    assert(!conf.contains("spark.executor.extraClassPath"))
  }

  test("expected executor count follows standalone scheduling") {
    assert(FixtureConf.expectedExecutors(cluster, build()) == 2)
    assert(FixtureConf.expectedExecutors(SparkTopology.Local(2), build()) == 0)
    val wide = SparkTopology.LocalCluster(2, 4, 4096)
    def expected(settings: (String, String)*) =
      FixtureConf.expectedExecutors(wide, FixtureConf.build(wide, "t", settings.toMap, driver))
    assert(expected() == 2)
    assert(expected("spark.executor.cores" -> "1") == 8)
    assert(expected("spark.executor.cores" -> "1", "spark.executor.memory" -> "2g") == 4)
    assert(expected("spark.executor.cores" -> "2", "spark.cores.max" -> "6") == 3)
  }

  test(
    "settings no executor could satisfy are rejected with the key, the value and what is allowed"
  ) {
    def rejected(settings: (String, String)*) =
      intercept[IllegalArgumentException](build(settings: _*)).getMessage
    assert(
      rejected("spark.executor.memory" -> "1500m").contains(
        "spark.executor.memory=1500m (1500 MB) exceeds the 1024 MB"
      )
    )
    assert(
      rejected("spark.executor.memory" -> "lots").contains(
        "spark.executor.memory='lots' is not a positive size"
      )
    )
    assert(
      rejected("spark.executor.cores" -> "2").contains(
        "spark.executor.cores=2 exceeds the 1 core(s)"
      )
    )
    assert(
      rejected("spark.executor.cores" -> "0").contains("spark.executor.cores='0' is not allowed")
    )
    assert(rejected("spark.testing" -> "true").contains("spark.testing=true is not allowed"))
  }

  test("Spark's test mode is refused, from the environment or a system property") {
    val env = intercept[IllegalStateException](
      DriverJvm.requireNotInSparkTestMode(Map("SPARK_TESTING" -> "1"), Map.empty)
    )
    assert(env.getMessage.contains("SPARK_TESTING=1"))
    val prop = intercept[IllegalStateException](
      DriverJvm.requireNotInSparkTestMode(Map.empty, Map("spark.testing" -> "true"))
    )
    assert(prop.getMessage.contains("spark.testing=true"))
    DriverJvm.requireNotInSparkTestMode(sys.env, sys.props)
  }

  test("the driver JVM opens what Spark needs (the build's argLine)") {
    assert(
      DriverJvm.requiredOpenPackages.contains("java.nio") && DriverJvm.requiredOpenPackages
        .contains("sun.nio.ch")
    )
    DriverJvm.requireSparkModuleAccess()
  }

  test("SPARK_HOME must be set and absolute; its jars/ is created") {
    val unset = intercept[IllegalStateException](SparkHome.prepare(Map.empty))
    assert(unset.getMessage.startsWith("SPARK_HOME is not set"))
    val relative =
      intercept[IllegalStateException](SparkHome.prepare(Map("SPARK_HOME" -> "target/x")))
    assert(relative.getMessage.contains("relative path"))
    val dir = Files.createTempDirectory("spark-home").resolve("nested")
    val home = SparkHome.prepare(Map("SPARK_HOME" -> dir.toString))
    assert(Files.isDirectory(home.jarsDir) && home.jarsDir == dir.resolve("jars"))
  }

  test("classpath entries are made absolute, wildcards kept") {
    val sep = File.pathSeparator
    val cp = ExecutorClassPath.of(
      s"lib/*${sep}target/classes$sep/opt/x.jar$sep${sep}target/classes",
      "/work/it"
    )
    assert(cp == Seq("/work/it/lib/*", "/work/it/target/classes", "/opt/x.jar"))
    assert(ExecutorClassPath.current().forall(e => new File(e.stripSuffix("*")).isAbsolute))
  }
}
