package dev.levee.it.spark

import org.apache.spark.SparkContext
import org.scalatest.{BeforeAndAfterAll, Suite}

/**
 * One cluster for all tests of a suite: executor JVMs take 15-40 s to start, so suites start them
 * once in `beforeAll` and close them in `afterAll`, where a close that leaves executor JVMs behind
 * fails the suite.
 */
trait SharedSparkCluster extends BeforeAndAfterAll { this: Suite =>

  protected def topology: SparkTopology

  /** Settings on top of the fixture's (shuffle manager, serializer, executor memory and JVM options...). */
  protected def sparkSettings: Map[String, String] = Map.empty

  @volatile private var running: SparkCluster = _

  protected final def cluster: SparkCluster = {
    val c = running
    if (c == null)
      throw new IllegalStateException(
        s"${getClass.getSimpleName}: the cluster is used before beforeAll or after afterAll"
      )
    c
  }

  protected final def sc: SparkContext = cluster.sc

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    running = SparkCluster.start(topology, sparkSettings, appName = getClass.getSimpleName)
  }

  override protected def afterAll(): Unit =
    try {
      val c = running
      running = null
      if (c != null) c.close()
    } finally super.afterAll()
}
