package org.apache.spark.shuffle.levee.suites

import org.apache.spark.ShuffleSuite
import org.apache.spark.rdd.PairRDDFunctionsSuite
import org.apache.spark.util.collection.ExternalAppendOnlyMapSuite

/**
 * Spark's shuffle suite with the manager under test. ShuffleSuite builds its contexts from its own `conf`, which
 * ignores system properties, so the build's settings are set there (Spark's SortShuffleSuite sets "sort" the same
 * way).
 */
class LeveeShuffleSuite extends ShuffleSuite with LeveeCensus {
  ManagerUnderTest.settings.foreach { case (k, v) => conf.set(k, v) }

  override protected def ciTests: Option[Set[String]] = Some(
    Set(
      "groupByKey without compression",
      "shuffle serializer",
      "shuffle with different compression settings (SPARK-3426)",
      "[SPARK-4085] rerun map stage if reduce stage cannot find its local shuffle file",
      "metrics for shuffle without aggregation",
      "metrics for shuffle with aggregation",
      "multiple simultaneous attempts for one task (SPARK-8029)"
    )
  )
}

/**
 * Spark's pair-RDD suite: one shared local[4] context. Its SparkConf reads system properties from Spark 4.0 on;
 * Spark 3.5's is `new SparkConf(false)`, so the build's settings are carried over by hand (a no-op on 4.x).
 */
class LeveePairRDDFunctionsSuite extends PairRDDFunctionsSuite with LeveeCensus {
  ManagerUnderTest.settings.foreach { case (k, v) => conf.set(k, v) }
  override protected def ciTests: Option[Set[String]] = None
  override protected def ciSkips: Set[String] = Set("sampleByKey", "sampleByKeyExact")
}

/**
 * The tests of Spark's external-map suite that go through a shuffle. The others build the map directly (they test
 * Spark's class, not a shuffle manager) or start contexts from `new SparkConf(false)`, which no setting outside the
 * test can reach.
 */
class LeveeExternalAppendOnlyMapSuite extends ExternalAppendOnlyMapSuite with LeveeCensus {
  override protected def readsInThisJvm: Boolean =
    false // local-cluster: the reads run in executor JVMs

  override protected def ciTests: Option[Set[String]] = Some(Set("spilling"))

  override protected def notLeaky: Map[String, String] = Seq(
    "single insert",
    "multiple insert",
    "insert with collision",
    "ordering",
    "null keys and values",
    "simple aggregator",
    "simple cogroup",
    "SPARK-22713 external aggregation updates peak execution memory",
    "force to spill for external aggregation"
  ).map(
    _ -> "its context is built from new SparkConf(false), which no setting outside the test reaches"
  ).toMap
}
