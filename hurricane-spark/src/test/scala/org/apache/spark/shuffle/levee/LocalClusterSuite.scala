package org.apache.spark.shuffle.levee

import java.io.File
import java.nio.file.{Files, Paths}

import org.apache.spark.{SparkConf, SparkContext}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/**
 * One `local-cluster[2,1,1024]` context shared by a suite's tests: two executor JVMs with one slot each, so a
 * clone really runs in another process than its owner and a cached partial really crosses a socket.
 */
abstract class LocalClusterSuite extends AnyFunSuite with BeforeAndAfterAll {
  protected val executors = 2
  protected def extraConf(conf: SparkConf): SparkConf = conf

  @transient protected var sc: SparkContext = _

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    // The in-process worker builds executor command lines with Spark's launcher, which wants SPARK_HOME/jars.
    val home = sys.env.getOrElse(
      "SPARK_HOME",
      sys.error("SPARK_HOME must be set (the pom sets target/spark-home)")
    )
    Files.createDirectories(Paths.get(home, "jars"))
    val classPath = System
      .getProperty("java.class.path")
      .split(File.pathSeparator)
      .map(p => new File(p).getAbsolutePath)
      .mkString(File.pathSeparator)
    val conf = new SparkConf()
      .setMaster(s"local-cluster[$executors,1,1024]")
      .setAppName(getClass.getSimpleName)
      .set("spark.ui.enabled", "false")
      .set("spark.executor.memory", "768m")
      .set("spark.executor.extraClassPath", classPath)
      .set("spark.executorEnv.SPARK_SCALA_VERSION", "2.13")
      .set("spark.driver.host", "127.0.0.1")
    sc = new SparkContext(extraConf(conf))
    awaitExecutors(executors)
  }

  /** Blocks until `n` executors have registered (15-40 s on a loaded 2-core machine). */
  protected def awaitExecutors(n: Int): Unit = {
    val deadline = System.nanoTime() + 180L * 1000 * 1000 * 1000
    while (sc.statusTracker.getExecutorInfos.length - 1 < n) {
      if (System.nanoTime() > deadline) sys.error(s"$n executors did not register within 180 s")
      Thread.sleep(100)
    }
  }

  override protected def afterAll(): Unit = {
    try if (sc != null) sc.stop()
    finally super.afterAll()
  }
}
