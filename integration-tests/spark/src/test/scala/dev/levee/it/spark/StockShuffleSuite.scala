package dev.levee.it.spark

import scala.jdk.CollectionConverters._

import org.apache.spark.SparkContext
import org.apache.spark.util.CollectionAccumulator
import org.scalatest.funsuite.AnyFunSuite

import dev.levee.it.spark.ShuffleWorkloads._

/**
 * Spark's stock shuffles on a fixture topology, checked against results computed on the driver,
 * and checked for where their tasks ran. Concrete suites pick the topology.
 */
abstract class StockShuffleSuite extends AnyFunSuite with SharedSparkCluster {

  private val MapPartitions = 4
  private val ReducePartitions = 3

  // Hot keys 300..302 lie in both join inputs' key ranges, so the skew reaches the join.
  private lazy val words = skewedPairs(
    seed = 1L,
    n = 12000,
    keys = 0 until 600,
    hotKeys = 3,
    firstHotKey = 300,
    hotShare = 0.3
  )
  private lazy val counts = uniformPairs(seed = 2L, n = 2000, keys = 300 until 800)

  /** Records the JVM of every map and reduce task of the jobs it is passed into. */
  private def taskJvms(sc: SparkContext): CollectionAccumulator[TaskJvm] =
    sc.collectionAccumulator[TaskJvm]("task JVMs")

  private def assertPlacement(jvms: CollectionAccumulator[TaskJvm]): Unit = {
    val tasks = jvms.value.asScala.toSeq
    assert(tasks.nonEmpty, "no task reported its JVM")
    val problems = TaskPlacement.problems(topology, cluster.driverPid, cluster.executorPids, tasks)
    assert(problems.isEmpty, problems.mkString("; "))
  }

  test("groupByKey returns every value of every key, with multiplicity") {
    val jvms = taskJvms(sc)
    val actual = sc
      .parallelize(words, MapPartitions)
      .mapPartitions { it => jvms.add(TaskJvm.current()); it }
      .groupByKey(ReducePartitions)
      .mapPartitions { it =>
        jvms.add(TaskJvm.current()); it.map { case (k, vs) => k -> multiset(vs) }
      }
      .collect()
    assert(
      actual.length == actual.map(_._1).distinct.length,
      "a key came out of groupByKey in more than one group"
    )
    val expected = grouped(words)
    val byKey = actual.toMap
    assert(byKey.keySet == expected.keySet)
    val wrong = expected.filter { case (k, vs) => byKey(k) != vs }.keys.take(5)
    assert(wrong.isEmpty, s"wrong value multisets for keys ${wrong.mkString(", ")}")
    assertPlacement(jvms)
  }

  test("join pairs every left value with every right value of the same key") {
    val jvms = taskJvms(sc)
    val left =
      sc.parallelize(words, MapPartitions).mapPartitions { it => jvms.add(TaskJvm.current()); it }
    val right = sc.parallelize(counts, MapPartitions / 2)
    val actual = left
      .join(right, ReducePartitions)
      .mapPartitions { it => jvms.add(TaskJvm.current()); it }
      .collect()
      .toSeq
      .groupMap(_._1)(_._2)
      .view
      .mapValues(multiset)
      .toMap
    val expected = joined(words, counts)
    assert(
      expected.size > 100 && expected(300).values.sum > 1000,
      "test data should have many join keys, including a hot one"
    )
    assert(actual.keySet == expected.keySet)
    val wrong = expected.filter { case (k, pairs) => actual(k) != pairs }.keys.take(5)
    assert(wrong.isEmpty, s"wrong joined pairs for keys ${wrong.mkString(", ")}")
    assertPlacement(jvms)
  }

  test("cogroup keeps keys present on one side only, with an empty group for the other") {
    val actual = sc
      .parallelize(words, MapPartitions)
      .cogroup(sc.parallelize(counts, MapPartitions / 2), ReducePartitions)
      .mapValues { case (ws, cs) => (multiset(ws), multiset(cs)) }
      .collect()
      .toMap
    val expected = cogrouped(words, counts)
    assert(
      expected.exists(_._2._1.isEmpty) && expected.exists(_._2._2.isEmpty),
      "test data should have one-sided keys"
    )
    assert(actual == expected)
  }

  test("reduceByKey sums per key, combining on the map side") {
    val actual =
      sc.parallelize(counts, MapPartitions).reduceByKey(_ + _, ReducePartitions).collect()
    assert(actual.toMap == summed(counts))
    assert(actual.length == actual.map(_._1).distinct.length)
  }
}

/** Tasks in two driver threads: quick feedback, no process boundary. */
class LocalStockShuffleSuite extends StockShuffleSuite {
  override protected def topology: SparkTopology = SparkTopology.LocalTwoThreads

  test("local[2] has no executor JVMs") {
    assert(cluster.executorPids.isEmpty)
  }
}
