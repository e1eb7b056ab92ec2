package org.apache.spark.shuffle.levee

import dev.levee.hurricane.core.WorkerLoad
import org.apache.spark.Aggregator
import org.apache.spark.util.collection.AppendOnlyMap
import org.scalatest.funsuite.AnyFunSuite

class KeyReportSuite extends AnyFunSuite {

  /** A shape whose only part the report reads is `mergesByKey`. */
  private final class Stub(override val mergesByKey: Boolean) extends BagShape[Int, Int, Int] {
    override def partial(
        p: Int,
        s: Iterator[Iterator[Product2[Int, Int]]],
        c: org.apache.spark.TaskContext
    ) =
      Iterator.empty
    override def output(
        p: Int,
        own: Iterator[Iterator[Product2[Int, Int]]],
        partials: => Iterator[Iterator[Int]],
        c: org.apache.spark.TaskContext
    ) = Iterator.empty
  }
  private val byKey = new Stub(mergesByKey = true)
  private val sum = Aggregator[Int, Int, Int](v => v, _ + _, _ + _)

  /** What Spark's combiner maps do with an aggregator: create a combiner for a new key, merge a value otherwise. */
  private def combine(
      agg: Aggregator[Int, Int, Int],
      records: Seq[(Int, Int)]
  ): AppendOnlyMap[Int, Int] = {
    val map = new AppendOnlyMap[Int, Int]()
    records.foreach { case (k, v) =>
      map.changeValue(k, (had, old) => if (had) agg.mergeValue(old, v) else agg.createCombiner(v))
    }
    map
  }

  test(
    "the combiner map's own calls count the records and the distinct keys, and the sums stay right"
  ) {
    val report = new KeyReport(byKey)
    val records = (0 until 1000).map(i => (i % 10, 1))
    val map = combine(report.counting(sum), records)
    assert(report.load == WorkerLoad(1000, 10))
    assert(map.iterator.toMap == (0 until 10).map(_ -> 100).toMap)
  }

  test(
    "a key created again after a spill is counted again: the estimate errs high, never above the records"
  ) {
    val report = new KeyReport(byKey)
    val counting = report.counting(sum)
    combine(counting, (0 until 500).map(i => (i % 10, 1)))
    combine(counting, (0 until 500).map(i => (i % 10, 1))) // a fresh map, as after a spill
    assert(report.load == WorkerLoad(1000, 20))
    val one = new KeyReport(byKey)
    one.counting(sum).createCombiner(1)
    assert(one.load == WorkerLoad(1, 1))
  }

  test("a shape that does not merge by key reports nothing and keeps its aggregator as it is") {
    val report = new KeyReport(new Stub(mergesByKey = false))
    assert(report.counting(sum) eq sum)
    combine(report.counting(sum), Seq((1, 1), (2, 2)))
    assert(report.load == WorkerLoad.Unknown)
  }
}
