package org.apache.spark.shuffle.levee

import java.util.concurrent.atomic.AtomicLong

import scala.collection.mutable.ArrayBuffer

import dev.levee.leaky.LeakyConf
import dev.levee.leaky.TestData
import dev.levee.leaky.TestData._
import dev.levee.leaky.mapside.{MapSideGrouper, ValuePack}
import dev.levee.leaky.memory.HeapBudget
import dev.levee.leaky.table.RecordVisitor
import dev.levee.leaky.value.ValueDecoder
import org.apache.spark.{ShuffleDependency, SparkEnv, TaskContext}
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}

/**
 * Map-side grouping ([[MapSideGrouper]]): which shuffles get it, that what crosses the shuffle is packs (fewer records
 * than values) and the groups still equal Scala's, and the grouper's bounds: a full table written out and refilled,
 * keys that do not repeat, a value larger than the whole table, memory returned, a damaged pack refused.
 */
class MapSideGroupingSuite extends LeakySparkSuite {

  private val written = new AtomicLong
  private val read = new AtomicLong

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(end: SparkListenerTaskEnd): Unit =
        Option(end.taskMetrics).foreach { m =>
          written.addAndGet(m.shuffleWriteMetrics.recordsWritten)
          read.addAndGet(m.shuffleReadMetrics.recordsRead)
        }
    })
  }

  private def handleOf(rdd: org.apache.spark.rdd.RDD[_]) =
    rdd.dependencies.head.asInstanceOf[ShuffleDependency[_, _, _]].shuffleHandle

  test(
    "groupByKey is grouped on the map side: packs cross the shuffle and the groups equal Scala's"
  ) {
    val data = TestData.zipfPairs(20000, 500, seed = 3)
    val grouped = sc.parallelize(data, 4).groupByKey(3)
    assert(handleOf(grouped).isInstanceOf[GroupedShuffleHandle[_, _, _]])
    drainListener(); written.set(0); read.set(0)
    val out = grouped.collect().toSeq
    drainListener()
    assert(multisets(out) == pairMultisets(data))
    // At most one pack per key and map task (500 keys, 4 maps), against 20,000 values.
    assert(written.get() > 0 && written.get() <= 4 * 500, s"${written.get()} records written")
    assert(read.get() == written.get())
  }

  test(
    "shuffles the table does not read, or that combine on the map side, are written as Spark writes them"
  ) {
    val rdd = sc.parallelize(TestData.uniformPairs(1000, 50, seed = 4), 2)
    assert(
      !handleOf(rdd.mapValues(_.length).reduceByKey(_ + _, 2))
        .isInstanceOf[GroupedShuffleHandle[_, _, _]]
    )
    assert(!handleOf(rdd.sortByKey()).isInstanceOf[GroupedShuffleHandle[_, _, _]])
    val combined = rdd.combineByKey[List[String]](
      (v: String) => List(v),
      (c: List[String], v: String) => v :: c,
      (a: List[String], b: List[String]) => a ::: b,
      new org.apache.spark.HashPartitioner(2),
      mapSideCombine = true
    )
    assert(!handleOf(combined).isInstanceOf[GroupedShuffleHandle[_, _, _]])
  }

  /** Runs `input` through a grouper bounded to `memory` in a task; the packs decoded, and what the grouper saw. */
  private def groupInTask(
      input: Seq[(Int, String)],
      memory: Long
  ): (Seq[(Int, Seq[String])], Long, Long, Boolean, Long) =
    sc.parallelize(Seq(1), 1)
      .mapPartitions { _ =>
        val serializer = SparkEnv.get.serializer.newInstance()
        val conf = LeakyConf(SparkEnv.get.conf).copy(mapSideGroupingMemory = memory)
        val grouper = new MapSideGrouper[Int](
          SparkInternals.taskMemoryManager(TaskContext.get()),
          serializer,
          conf,
          HeapBudget.of(conf.maxHeapFraction, conf.maxLiveFraction)
        )
        val decoder = new ValueDecoder(serializer)
        val packs = grouper
          .group(input.iterator)
          .map { p =>
            val values = ArrayBuffer.empty[String]
            ValuePack.foreach(
              p._2,
              new RecordVisitor {
                override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit =
                  values += decoder.decode(bytes, offset, length).asInstanceOf[String]
              }
            )
            (p._1, values.toSeq)
          }
          .toList
        Iterator((packs, grouper.records, grouper.packs, grouper.isGrouping, grouper.getUsed))
      }
      .collect()
      .head

  private def unpacked(packs: Seq[(Int, Seq[String])]): Map[Int, Seq[String]] =
    packs.groupBy(_._1).map { case (k, ps) => k -> ps.flatMap(_._2).sorted }

  test("a full table is written out and refilled; every value comes out once") {
    val input = (0 until 20000).map(i => (i % 200, s"value-$i-" + "x" * 80))
    val (packs, records, packCount, grouping, used) = groupInTask(input, 256L << 10)
    assert(records == input.size && packCount == packs.size)
    assert(unpacked(packs) == pairMultisets(input))
    assert(
      grouping,
      s"200 keys repeat: grouping must go on (${packs.size} packs, sizes ${packs.map(_._2.size).take(20)})"
    )
    // 256 kB holds a few thousand of these values: the table filled and emptied many times, each time a pack per key.
    assert(packs.size > 200 && packs.size < input.size / 2, s"${packs.size} packs")
    assert(used == 0, "the grouper returns its memory when its output is exhausted")
  }

  test("keys that do not repeat stop the grouping: from then on each value goes alone") {
    val input = (0 until 5000).map(i => (i, s"value-$i-" + "y" * 40))
    val (packs, records, _, grouping, used) = groupInTask(input, 256L << 10)
    assert(!grouping && records == input.size && packs.size == input.size)
    assert(unpacked(packs) == pairMultisets(input))
    assert(used == 0)
  }

  test("a value larger than the whole table goes out alone, between full tables") {
    val big = "z" * (300 << 10)
    val input = (0 until 3000).map(i => (i % 10, s"v$i")) ++ Seq((3, big)) ++ (0 until 3000).map(
      i => (i % 10, s"w$i")
    )
    val (packs, records, _, grouping, _) = groupInTask(input, 256L << 10)
    assert(grouping && records == input.size)
    assert(unpacked(packs) == pairMultisets(input))
    assert(packs.exists(p => p._2 == Seq(big)), "the large value is a pack of its own")
  }

  test("a damaged pack is refused with the place it breaks, before its bytes are read") {
    val pack = ValuePack.single("hello".getBytes("UTF-8"), 5) ++ ValuePack.single(
      "world".getBytes("UTF-8"),
      5
    )
    var visited = 0
    val count: RecordVisitor = (_, _, _, _) => visited += 1
    ValuePack.foreach(pack, count)
    assert(visited == 2)
    visited = 0
    val truncated = intercept[IllegalStateException](ValuePack.foreach(pack.dropRight(2), count))
    assert(
      truncated.getMessage.contains("record at byte 7 of 12") && truncated.getMessage.contains(
        "claims 5 bytes"
      )
    )
    assert(visited == 1, "only the intact first record is visited")
    val endless = Array[Byte](0, 0x80.toByte, 0x80.toByte, 0x80.toByte, 0x80.toByte, 0x80.toByte, 1)
    assert(
      intercept[IllegalStateException](ValuePack.foreach(endless, count)).getMessage
        .contains("length runs past")
    )
  }
}
