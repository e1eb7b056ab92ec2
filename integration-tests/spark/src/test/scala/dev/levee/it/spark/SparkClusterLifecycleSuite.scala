package dev.levee.it.spark

import scala.concurrent.duration._
import scala.jdk.CollectionConverters._

import org.scalatest.funsuite.AnyFunSuite

/** Starting and stopping: failures leave nothing running behind. */
class SparkClusterLifecycleSuite extends AnyFunSuite {

  private def executorChildren(): Seq[ProcessHandle] =
    ProcessHandle.current().children().iterator().asScala.filter(ExecutorProcesses.isExecutor).toSeq

  test(
    "a registration timeout names the shortfall and where the executor logs are, and stops everything"
  ) {
    val e = intercept[IllegalStateException] {
      SparkCluster.start(SparkTopology.TwoExecutorJvms, registrationTimeout = 1.millis)
    }
    assert(e.getMessage.contains("of 2 executors registered"), e.getMessage)
    assert(e.getMessage.contains("spark-home"), e.getMessage)
    assert(
      executorChildren().isEmpty,
      s"executor JVMs left running: ${executorChildren().map(_.pid())}"
    )
    // A SparkContext left active would make this one fail ("Only one SparkContext should be running").
    SparkCluster.using(SparkTopology.Local(1)) { c =>
      assert(c.sc.parallelize(1 to 10).sum() == 55)
    }
  }

  test("close is idempotent, and using closes also when the body throws") {
    var captured: SparkCluster = null
    val e = intercept[IllegalArgumentException] {
      SparkCluster.using(SparkTopology.Local(1)) { c =>
        captured = c
        throw new IllegalArgumentException("boom")
      }
    }
    assert(e.getMessage == "boom")
    assert(captured.isClosed && captured.sc.isStopped)
    captured.close()
  }

  test(
    "settings that would leave the master unable to start an executor fail before Spark starts"
  ) {
    val e = intercept[IllegalArgumentException] {
      SparkCluster.start(SparkTopology.TwoExecutorJvms, Map("spark.executor.memory" -> "2g"))
    }
    assert(
      e.getMessage.contains("spark.executor.memory=2g (2048 MB) exceeds the 1024 MB"),
      e.getMessage
    )
  }
}
