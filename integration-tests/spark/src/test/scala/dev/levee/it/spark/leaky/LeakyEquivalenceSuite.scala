package dev.levee.it.spark.leaky

import org.apache.spark.TaskContext
import org.apache.spark.rdd.RDD
import org.scalatest.funsuite.AnyFunSuite

import dev.levee.it.spark.{SharedSparkCluster, SparkTopology}
import dev.levee.it.spark.ShuffleWorkloads._
import dev.levee.it.spark.leaky.LeakyWorkloads._
import dev.levee.leaky.implicits._

/**
 * The leaky shuffle manager on two executor JVMs gives the same answers as stock Spark, compared
 * as multisets of values per key. Aggregations (transparent path) are checked against results
 * computed on the driver without Spark, because with the leaky manager on, the cluster's own
 * groupByKey is the leaky one; the explicit leaky joins are checked against Spark's stock joins in
 * the same cluster (CoGroupedRDD is out of the shuffle manager's reach) and against the driver.
 * Concrete suites pick the serializer.
 */
abstract class LeakyEquivalenceSuite extends AnyFunSuite with SharedSparkCluster {

  protected def serializer: String

  override protected def topology: SparkTopology = SparkTopology.TwoExecutorJvms

  override protected def sparkSettings: Map[String, String] = Map(
    "spark.shuffle.manager" -> LeakyExecutorProbe.ManagerClass,
    "spark.serializer" -> serializer,
    "spark.executor.memory" -> "768m",
    // Standalone's default already retries; stated here because the retry test depends on it.
    "spark.task.maxFailures" -> "2"
  )

  private val MapPartitions = 4
  private val ReducePartitions = 3

  private lazy val zipf = zipfWords(seed = 11, n = 30000, keys = 2000)
  private lazy val uniform = uniformWords(seed = 12, n = 30000, keys = 0 until 5000)
  private lazy val counts = zipfCounts(seed = 13, n = 30000, keys = 2000)
  private lazy val large = largeValues(seed = 14, n = 24, keys = 5, maxChars = 1 << 20)
  // Left: Zipf keys 1000..3999, hottest first; right: uniform 0..2499. Keys 1000..2499 join
  // (the hot ones many-to-many), 0..999 are right-only and 2500..3999 left-only.
  private lazy val joinLeft = zipfWords(seed = 15, n = 20000, keys = 3000, firstKey = 1000)
  private lazy val joinRight = uniformWords(seed = 16, n = 6000, keys = 0 until 2500)

  private def rdd[V](records: Seq[(Int, V)], partitions: Int = MapPartitions): RDD[(Int, V)] =
    sc.parallelize(records, partitions)

  private def assertSameGroups[V](
      actual: Seq[(Int, Multiset[V])],
      expected: Map[Int, Multiset[V]]
  ): Unit = {
    assert(
      actual.length == actual.map(_._1).distinct.length,
      "a key came out in more than one group"
    )
    val byKey = actual.toMap
    val missing = expected.keySet -- byKey.keySet
    val extra = byKey.keySet -- expected.keySet
    assert(
      missing.isEmpty && extra.isEmpty,
      s"missing keys ${missing.take(5)}, unexpected keys ${extra.take(5)}"
    )
    val wrong = expected.keys.filter(k => byKey(k) != expected(k)).take(5)
    assert(wrong.isEmpty, s"wrong value multisets for keys ${wrong.mkString(", ")}")
  }

  private def assertSamePairs[P](actual: Seq[(Int, P)], expected: Seq[(Int, P)]): Unit =
    assertSameGroups(
      actual.groupMap(_._1)(_._2).view.mapValues(multiset).toSeq,
      expected.groupMap(_._1)(_._2).view.mapValues(multiset).toMap
    )

  test("both executors run the leaky shuffle manager") {
    val reports = LeakyExecutorProbe.reports(sc)
    assert(
      reports.map(_.jvm.pid).toSet == cluster.executorPids.values.toSet,
      s"probe did not reach both: $reports"
    )
    assert(
      reports.forall(_.shuffleManager == LeakyExecutorProbe.ManagerClass),
      reports.mkString("; ")
    )
  }

  test("groupByKey, Zipf and uniform keys, with empty values") {
    for ((name, data) <- Seq("zipf" -> zipf, "uniform" -> uniform)) withClue(s"$name: ") {
      val actual =
        rdd(data).groupByKey(ReducePartitions).mapValues(vs => multiset(vs)).collect().toSeq
      assertSameGroups(actual, grouped(data))
    }
    assert(grouped(zipf)(0).values.sum > 3000, "key 0 should be hot")
    // The table's code ran in the executors, not only the delegate's.
    val reports = LeakyExecutorProbe.reports(sc)
    assert(
      reports.exists(_.tableLoaded),
      s"no executor loaded ${LeakyExecutorProbe.TableClass}: $reports"
    )
  }

  test("groupByKey with values from empty to 1 MiB") {
    val actual =
      rdd(large, 3).groupByKey(2).mapValues(vs => multiset(vs.map(digest))).collect().toSeq
    val expected = grouped(large.map { case (k, v) => k -> digest(v) })
    assert(
      expected.values.exists(_.keySet.exists(_.length > (512 << 10))) && expected.values.exists(
        _.contains(digest(""))
      )
    )
    assertSameGroups(actual, expected)
  }

  test("reduceByKey, aggregateByKey and combineByKey") {
    val data = counts
    val reduced = rdd(data).reduceByKey(_ + _, ReducePartitions).collect()
    assert(reduced.length == reduced.map(_._1).distinct.length)
    assert(reduced.toMap == summed(data))

    val countAndSum = rdd(data)
      .aggregateByKey((0L, 0L), ReducePartitions)(
        (acc, v) => (acc._1 + 1, acc._2 + v),
        (a, b) => (a._1 + b._1, a._2 + b._2)
      )
      .collect()
      .toMap
    assert(
      countAndSum == data.groupMapReduce(_._1)(r => (1L, r._2))((a, b) =>
        (a._1 + b._1, a._2 + b._2)
      )
    )

    // Combiners are whole lists: the reduce side merges map-side combiners, not raw values.
    val lists = rdd(zipf)
      .combineByKey[List[String]](
        v => List(v),
        (l, v) => v :: l,
        (a, b) => a ::: b,
        ReducePartitions
      )
      .mapValues(l => multiset(l))
      .collect()
      .toSeq
    assertSameGroups(lists, grouped(zipf))
  }

  test("leakyGroupByKey") {
    assertSameGroups(
      rdd(zipf).leakyGroupByKey(ReducePartitions).mapValues(vs => multiset(vs)).collect().toSeq,
      grouped(zipf)
    )
    val big =
      rdd(large, 3).leakyGroupByKey(2).mapValues(vs => multiset(vs.map(digest))).collect().toSeq
    assertSameGroups(big, grouped(large.map { case (k, v) => k -> digest(v) }))
  }

  test("leakyCogroup keeps one-sided keys with an empty group for the other side") {
    val (l, r) = (rdd(joinLeft), rdd(joinRight, 2))
    val leaky = l
      .leakyCogroup(r, ReducePartitions)
      .mapValues { case (a, b) => (multiset(a), multiset(b)) }
      .collect()
    val stock = l
      .cogroup(r, ReducePartitions)
      .mapValues { case (a, b) => (multiset(a), multiset(b)) }
      .collect()
    val expected = cogrouped(joinLeft, joinRight)
    assert(
      expected.exists(_._2._1.isEmpty) && expected.exists(_._2._2.isEmpty),
      "data should have one-sided keys"
    )
    assert(leaky.length == leaky.map(_._1).distinct.length)
    assert(leaky.toMap == expected)
    assert(stock.toMap == expected)
  }

  test("leakyJoin and the three outer joins equal Spark's, many-to-many keys included") {
    val (l, r) = (rdd(joinLeft), rdd(joinRight, 2))
    val expectedInner = joined(joinLeft, joinRight)
    assert(expectedInner(1000).values.sum > 1000, "the hot key should join many to many")

    val inner = l.leakyJoin(r, ReducePartitions).collect().toSeq
    assertSamePairs(inner, l.join(r, ReducePartitions).collect().toSeq)
    assertSameGroups(inner.groupMap(_._1)(_._2).view.mapValues(multiset).toSeq, expectedInner)

    assertSamePairs(
      l.leakyLeftOuterJoin(r, ReducePartitions).collect().toSeq,
      l.leftOuterJoin(r, ReducePartitions).collect().toSeq
    )
    assertSamePairs(
      l.leakyRightOuterJoin(r, ReducePartitions).collect().toSeq,
      l.rightOuterJoin(r, ReducePartitions).collect().toSeq
    )
    val full = l.leakyFullOuterJoin(r, ReducePartitions).collect().toSeq
    assertSamePairs(full, l.fullOuterJoin(r, ReducePartitions).collect().toSeq)
    assert(
      full.exists(_._2._1.isEmpty) && full.exists(_._2._2.isEmpty),
      "full outer join should have both one-sided kinds"
    )
  }

  test(
    "a reduce task that fails half-way through its groups is retried and the answer is still right"
  ) {
    val recorder = new TaskEndRecorder
    sc.addSparkListener(recorder)
    try {
      val data = zipf
      val (actual, attempts) = recorder.during() {
        rdd(data)
          .groupByKey(ReducePartitions)
          .mapPartitionsWithIndex { (partition, groups) =>
            val ctx = TaskContext.get()
            if (partition == 1 && ctx.attemptNumber() == 0) {
              // Consume part of the table's output first, so the failure hits a table in use.
              groups.take(10).foreach(_._2.size)
              throw new IllegalStateException("injected failure of the first attempt")
            }
            groups.map { case (k, vs) => k -> multiset(vs) }
          }
          .collect()
          .toSeq
      }
      assertSameGroups(actual, grouped(data))
      val failed = attempts.filterNot(_.successful)
      assert(
        failed.size == 1 && failed.head.failure.contains("injected failure"),
        s"failed attempts: $failed"
      )
      assert(
        attempts.exists(a =>
          a.successful && a.partition == failed.head.partition && a.attemptNumber == 1
        )
      )
    } finally sc.removeSparkListener(recorder)
  }
}

class LeakyJavaSerializerSuite extends LeakyEquivalenceSuite {
  override protected def serializer: String = "org.apache.spark.serializer.JavaSerializer"
}

class LeakyKryoSuite extends LeakyEquivalenceSuite {
  override protected def serializer: String = "org.apache.spark.serializer.KryoSerializer"
}
