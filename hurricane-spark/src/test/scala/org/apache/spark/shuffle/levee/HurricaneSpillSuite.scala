package org.apache.spark.shuffle.levee

import scala.jdk.CollectionConverters._

import org.apache.spark.{ShuffleDependency, SparkConf}

/**
 * With the merge not weighed (`clone.mergeCost` 0, the thesis's Eq. 4.1 alone), a wide aggregation's hot partition
 * gets clones, and each worker spills only for its share: the largest Hurricane task spills less than stock's hot
 * task. With the default, the same job gets no clone (`HurricaneSuite`): the trade-off between spill and time the
 * module README measures.
 */
class HurricaneSpillSuite extends HurricaneJobSuite {
  override protected def extraConf(conf: SparkConf): SparkConf =
    HurricaneTestConf
      .scaledDown(conf)
      .set("spark.levee.hurricane.clone.mergeCost", "0")
      // An aggregation spills each 40,000 records it inserts, whatever the heap, so the spills depend on the records
      // a task combines: the hot partition (133k) spills, a window of two chunks (two of its 8 map outputs, about
      // 33k) does not, as a 4 MB-chunk window does not at a real executor's memory.
      .set("spark.shuffle.spill.numElementsForceSpillThreshold", "40000")

  test(
    "clones take their share of a hot partition's spill: the owner spills less than stock's hot task"
  ) {
    val (combined, want) = distinctKeysCombine()
    def counts(): Map[Int, Long] = combined.collect().toMap
    def largestSpill: Long = ended.asScala.map(_.taskMetrics.diskBytesSpilled).max
    val (stockCounts, _) = measured(stock(counts()))
    val stockSpill = largestSpill
    val startedBefore = metrics.clonesStarted.sum()
    val (hurricaneCounts, _) = measured(counts())
    val spill = largestSpill
    println(s"[hurricane] largest task spill: stock $stockSpill B, owner or clone $spill B")
    assert(stockCounts == want && hurricaneCounts == want)
    val dep = combined.dependencies.head.asInstanceOf[ShuffleDependency[Int, Int, Long]]
    assert(MergeShape.of(dep).exists(_.readsRaw), "the bag's chunks are read combined, not raw")
    assert(
      sc.parallelize(0 until 4, 4).map(_ => RawDependency.available).collect().forall(identity),
      "an executor cannot make a raw view of a dependency"
    )
    assert(stockSpill > 0, "stock's hot task did not spill: the test measures nothing")
    assert(metrics.clonesStarted.sum() > startedBefore, "no clone started for the hot partition")
    assert(
      spill < stockSpill,
      s"the largest Hurricane task spilled $spill bytes, stock's hot task $stockSpill: the owner merged all again"
    )
  }
}
