package dev.levee.it.spark

import java.lang.management.ManagementFactory

import scala.jdk.CollectionConverters._

import org.apache.spark.SparkEnv

/**
 * The stock shuffles on two executor JVMs, started with the kind of settings benchmarks pass
 * (serializer, shuffle manager, executor heap and GC), which the tests check reached the executors.
 */
class LocalClusterStockShuffleSuite extends StockShuffleSuite {

  override protected def topology: SparkTopology = SparkTopology.TwoExecutorJvms

  override protected def sparkSettings: Map[String, String] = Map(
    "spark.serializer" -> "org.apache.spark.serializer.KryoSerializer",
    "spark.shuffle.manager" -> "org.apache.spark.shuffle.sort.SortShuffleManager",
    "spark.executor.memory" -> "768m",
    "spark.executor.extraJavaOptions" -> "-XX:+UseParallelGC"
  )

  test("two executors, each in its own JVM, neither of them the driver") {
    val pids = cluster.executorPids
    assert(pids.size == 2, s"executor JVMs: $pids")
    assert(pids.values.toSet.size == 2, s"executors share a JVM: $pids")
    assert(
      !pids.values.exists(_ == cluster.driverPid),
      s"an executor runs in the driver JVM ${cluster.driverPid}: $pids"
    )
    assert(pids.values.forall(pid => ProcessHandle.of(pid).map(_.isAlive).orElse(false)))
  }

  test("caller settings reach the executor JVMs") {
    // Many short tasks so that both executors get some.
    val seen = sc
      .parallelize(1 to 8, 8)
      .mapPartitions { _ =>
        val env = SparkEnv.get
        val gcs = ManagementFactory.getGarbageCollectorMXBeans.asScala.map(_.getName).toSeq.sorted
        Iterator(
          (
            TaskJvm.current(),
            env.serializer.getClass.getName,
            env.shuffleManager.getClass.getName,
            gcs,
            Runtime.getRuntime.maxMemory(),
            System.getProperty("java.io.tmpdir")
          )
        )
      }
      .collect()
      .distinct
      .toSeq

    assert(
      seen.map(_._1.pid).toSet == cluster.executorPids.values.toSet,
      s"tasks did not reach both executors: $seen"
    )
    seen.foreach { case (jvm, serializer, shuffleManager, gcs, maxHeap, tmpDir) =>
      withClue(s"executor ${jvm.executorId}: ") {
        assert(serializer == "org.apache.spark.serializer.KryoSerializer")
        assert(shuffleManager == "org.apache.spark.shuffle.sort.SortShuffleManager")
        assert(gcs.contains("PS Scavenge"), s"-XX:+UseParallelGC did not apply, collectors: $gcs")
        // -Xmx768m; the JVM reports a little less than -Xmx (one survivor space).
        assert(maxHeap > 600L * 1024 * 1024 && maxHeap <= 768L * 1024 * 1024, s"max heap $maxHeap")
        assert(
          tmpDir == System.getProperty("java.io.tmpdir"),
          "executors should share the driver's tmpdir"
        )
        assert(!jvm.sparkTestMode)
      }
    }
  }
}
