package dev.levee.bench.spark

import java.nio.charset.StandardCharsets
import java.nio.file.Files

import org.apache.spark.{SparkConf, SparkContext}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

import dev.levee.leaky.implicits._

/**
 * The bench compares variants on their output digests, so the DataFrame jobs must compute exactly what the RDD jobs
 * compute (same groups, values and pairs), and the leaky operators exactly what stock's do, on the bench's own
 * input format: checked here on a small input with repeated keys, empty values and lines without a tab.
 */
class WorkloadAgreementSuite extends AnyFunSuite with BeforeAndAfterAll {
  @transient private var sc: SparkContext = _
  private val dir = Files.createTempDirectory("levee-workloads")

  private def write(name: String, lines: Seq[String]): String = {
    val f = dir.resolve(name)
    Files.write(f, lines.mkString("\n").getBytes(StandardCharsets.UTF_8))
    f.toUri.toString
  }

  private lazy val left = write(
    "left.txt",
    (0 until 3000).map(i =>
      if (i % 97 == 0) s"k${i % 40}" else s"k${i % 50}\tv${i % 13}${"x" * (i % 5)}"
    )
  )
  private lazy val right = write("right.txt", (0 until 300).map(i => s"k${i % 60}\tw$i"))

  override protected def beforeAll(): Unit = {
    sc = new SparkContext(
      new SparkConf()
        .setMaster("local[2]")
        .setAppName("workload-agreement")
        .set("spark.ui.enabled", "false")
        .setAll(DataFrameWorkloads.SessionSettings)
    )
  }

  override protected def afterAll(): Unit = if (sc != null) sc.stop()

  test("the DataFrame groupBy and join give the RDD jobs' digests") {
    val rddGroups = GroupByWorkload.run(sc, left, 3)
    assert(rddGroups.groups == 50 && rddGroups.values == 3000)
    assert(DataFrameWorkloads.groupBy(sc, left, 3) == rddGroups)
    val rddJoin = JoinWorkload.run(sc, left, right, 3, JoinWorkload.stockJoin)
    assert(rddJoin.values > 0)
    assert(DataFrameWorkloads.join(sc, left, right, 4) == rddJoin)
    assert(JoinWorkload.run(sc, left, right, 2, (l, r, n) => l.leakyJoin(r, n)) == rddJoin)
  }

  test("every aggregation's digest does not depend on the number of reduce tasks") {
    AggregationWorkloads.Ops.foreach { op =>
      assert(
        AggregationWorkloads.run(op, sc, left, 1) == AggregationWorkloads.run(op, sc, left, 3),
        op
      )
    }
  }

  // Last: the Dataset arms change the shared session's SQL settings.
  test(
    "the skewed join's arms give one answer: RDD join, Hurricane's joins (without the manager) and Datasets"
  ) {
    val join =
      hurricane.SkewedJoin(1.0, records = 20000, maps = 4, rowsPerKey = 3, parkNanosPerPair = 0)
    val want = join.rddJoin(sc)
    val byHand = {
      val probe = join.probe(sc).collect()
      val build = join.build(sc).collect().groupMap(_._1)(_._2)
      probe.map { case (k, v) => build(k).map(w => ((v * 31 + w) % 65521).toLong).sum }.sum
    }
    assert(want == byHand)
    assert(join.hurricaneJoin(sc) == want)
    assert(join.hurricaneJoinWithMerge(sc) == want)
    assert(
      join.dataset(
        sc,
        hurricane.SkewedJoin.aqeSettings(64, 1024, 1024),
        broadcastHint = false
      ) == want
    )
    assert(
      join.dataset(sc, hurricane.SkewedJoin.broadcastSettings(64), broadcastHint = true) == want
    )
  }
}
