package org.apache.spark.shuffle.levee

import dev.levee.leaky.{CollidingKey, LeakyConf, TestData}
import dev.levee.leaky.TestData._
import dev.levee.leaky.implicits._
import dev.levee.leaky.memory.HeapBudget
import dev.levee.leaky.table.{GroupBuilder, LeakyHashTable, SpillTriggers}
import org.apache.spark.{SparkConf, SparkEnv, TaskContext}
import org.apache.spark.memory.{MemoryConsumer, MemoryMode}

/**
 * A task execution-memory budget of about a megabyte: the leaky table must spill sorted runs,
 * merge them, and give the right answer (including keys whose hashes collide).
 */
class LeakySpillSuite extends LeakySparkSuite {
  override protected def extraConf(conf: SparkConf): SparkConf = conf
    .set("spark.testing.reservedMemory", "0")
    .set("spark.testing.memory", (4L << 20).toString) // 2.4 MB unified memory for 2 tasks
    .set(LeakyConf.InitialThreshold.name, "128k")
    .set(LeakyConf.PageSize.name, "16k")
    .set(LeakyConf.MaxRunSegment.name, "1k")

  test("groupByKey with a tiny memory budget spills and is still right") {
    diskSpilled.set(0)
    val data =
      TestData.uniformPairs(60000, 5000, seed = 11).map { case (k, v) => (k, v + "-" * 80) }
    val result = sc.parallelize(data, 4).groupByKey(2).collect().toSeq
    assert(multisets(result) == pairMultisets(data))
    drainListener()
    assert(diskSpilled.get() > 0, "the table must have spilled")
  }

  test("a task that stops reading early returns its memory and deletes its spill runs") {
    diskSpilled.set(0)
    val data =
      TestData.uniformPairs(60000, 5000, seed = 12).map { case (k, v) => (k, v + "-" * 80) }
    val first =
      sc.parallelize(data, 4).groupByKey(2).take(1) // leak check is on: would fail the task
    assert(
      first.length == 1 && first.head._2.toSeq.sorted == data
        .filter(_._1 == first.head._1)
        .map(_._2)
        .sorted
    )
    drainListener()
    assert(diskSpilled.get() > 0, "the table must have spilled")
    val leftovers = SparkEnv.get.blockManager.diskBlockManager.localDirs.toSeq
      .flatMap(d => Option(d.listFiles()).toSeq.flatten)
      .flatMap(sub => Option(sub.listFiles()).toSeq.flatten)
      .filter(_.getName.startsWith("temp_local_"))
    assert(leftovers.isEmpty, s"spill runs left behind: $leftovers")
  }

  test("leaky join with colliding key hashes spills and merges correctly") {
    diskSpilled.set(0)
    // ~2.7 MB of values per reduce task against a 2.4 MB pool for the whole executor
    val left = (0 until 40000).map(i => (CollidingKey(i % 3000), s"l$i" + "x" * 120))
    val right = (0 until 6000).map(i => (CollidingKey(i % 4000), s"r$i"))
    val l = sc.parallelize(left, 3)
    val r = sc.parallelize(right, 2)
    val id: String => String = _.takeWhile(_ != 'x') // small to collect, still unique
    assert(
      pairMultisets(l.leakyJoin(r, 2).mapValues { case (v, w) => (id(v), w) }.collect().toSeq) ==
        pairMultisets(l.join(r, 2).mapValues { case (v, w) => (id(v), w) }.collect().toSeq)
    )
    val full =
      l.leakyFullOuterJoin(r, 2).mapValues { case (v, w) => (v.map(id), w) }.collect().toSeq
    val stockFull =
      l.fullOuterJoin(r, 2).mapValues { case (v, w) => (v.map(id), w) }.collect().toSeq
    assert(pairMultisets(full) == pairMultisets(stockFull))
    drainListener()
    assert(diskSpilled.get() > 0, "the table must have spilled")
  }

  test("a spill requested by another memory consumer of the task is honoured") {
    val out = sc
      .parallelize(Seq(1), 1)
      .mapPartitions { _ =>
        val ctx = TaskContext.get()
        val tmm = SparkInternals.taskMemoryManager(ctx)
        val table = new LeakyHashTable[Int](
          tmm,
          SparkEnv.get.serializer.newInstance(),
          LeakyConf(SparkEnv.get.conf),
          false,
          SparkInternals.spillStorage()
        )
        (0 until 30000).foreach(i => table.insert(i % 100, 0, s"value-$i"))
        val usedBefore = table.getUsed
        val other = new MemoryConsumer(tmm, MemoryMode.ON_HEAP) {
          override def spill(size: Long, trigger: MemoryConsumer): Long = 0L
        }
        val granted = other.acquireMemory(2L << 20) // more than is free: someone must spill
        val spills = table.spillCount
        val usedAfter = table.getUsed
        other.freeMemory(granted)
        val sizes = table
          .groups(() =>
            new GroupBuilder[Int] {
              private var n = 0
              override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit =
                n += 1
              override def result(): Int = n
            }
          )
          .map(_._2)
          .toSeq
        Iterator((usedBefore, spills, usedAfter, sizes.size, sizes.distinct))
      }
      .collect()
      .head
    val (usedBefore, spills, usedAfter, groups, sizes) = out
    assert(usedBefore > 0, "the table must hold granted memory before the request")
    assert(
      spills == 1 && usedAfter == 0,
      s"forced spill: $spills runs, $usedAfter bytes still held"
    )
    assert(
      groups == 100 && sizes == Seq(300),
      "spilled and in-memory parts merge into whole groups"
    )
  }

  test("Spark's forced-spill settings make the table spill whatever memory it has") {
    // Spark's Spillable honours spark.shuffle.spill.numElementsForceSpillThreshold and
    // spark.shuffle.spill.maxSizeInBytesForSpillThreshold; the table must too (they bound a task's memory).
    def run(triggers: SpillTriggers): (Int, Seq[Int], Long) = sc
      .parallelize(Seq(1), 1)
      .mapPartitions { _ =>
        val table = new LeakyHashTable[Int](
          SparkInternals.taskMemoryManager(TaskContext.get()),
          SparkEnv.get.serializer.newInstance(),
          LeakyConf(SparkEnv.get.conf),
          false,
          SparkInternals.spillStorage(),
          triggers
        )
        (0 until 1000).foreach(i => table.insert(i % 50, 0, s"value-$i-" + "v" * 40))
        val sizes = table.groups(() => new CountingBuilder).map(_._2).toSeq
        Iterator((table.spillCount, sizes.distinct, table.memoryBytesSpilled))
      }
      .collect()
      .head
    val (noSpills, _, _) = run(SpillTriggers.None)
    assert(noSpills == 0, "1000 small records fit in the initial threshold")
    val (byCount, countSizes, countSpilled) = run(SpillTriggers(maxRecords = 100, Long.MaxValue))
    assert(
      byCount == 9,
      s"more than 100 records since the last spill: 9 spills in 1000, got $byCount"
    )
    assert(countSizes == Seq(20) && countSpilled > 0)
    val (byBytes, bytesSizes, _) = run(SpillTriggers(Int.MaxValue, maxBytes = 16L << 10))
    assert(byBytes >= 3, s"60 KB of values against a 16 KiB cap must spill, got $byBytes spills")
    assert(bytesSizes == Seq(20), "spilled runs merge into whole groups")
  }

  test("a table that spills because it is full keeps its grant and pages for the next fill") {
    val out = sc
      .parallelize(Seq(1), 1)
      .mapPartitions { _ =>
        val table = new LeakyHashTable[Int](
          SparkInternals.taskMemoryManager(TaskContext.get()),
          SparkEnv.get.serializer.newInstance(),
          LeakyConf(SparkEnv.get.conf),
          false,
          SparkInternals.spillStorage()
        )
        var i = 0
        while (table.spillCount == 0) { table.insert(i % 100, 0, s"value-$i-" + "v" * 40); i += 1 }
        val (usedAtSpill, bytesAtSpill) = (table.getUsed, table.currentBytes)
        val total = 4 * i
        while (i < total) { table.insert(i % 100, 0, s"value-$i-" + "v" * 40); i += 1 }
        val groups = table.groups(() =>
          new GroupBuilder[Int] {
            private var n = 0
            override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit =
              n += 1
            override def result(): Int = n
          }
        )
        val initial = LeakyConf(SparkEnv.get.conf).initialMemoryThreshold
        val unusedAtEmission = table.getUsed - math.max(0L, table.currentBytes - initial)
        val sizes = groups.map(_._2).toSeq
        Iterator(
          (
            usedAtSpill,
            bytesAtSpill,
            table.spillCount,
            table.peakMemoryBytes,
            total,
            sizes.sum,
            table.getUsed,
            unusedAtEmission
          )
        )
      }
      .collect()
      .head
    val (usedAtSpill, bytesAtSpill, spills, peak, total, emitted, usedAtEnd, unusedAtEmission) = out
    assert(
      unusedAtEmission <= 0,
      s"emission starts without kept pages or grant beyond what is held: $unusedAtEmission"
    )
    assert(usedAtSpill > 0, "the grant stays with the table across its own spill")
    assert(bytesAtSpill > 0, "the pages stay with the table across its own spill")
    assert(spills >= 3, s"refilling four times as much must spill again, got $spills runs")
    assert(
      peak <= 2 * bytesAtSpill + (1L << 20),
      s"refills reuse the kept pages: peak $peak, kept $bytesAtSpill"
    )
    assert(
      emitted == total && usedAtEnd == 0,
      s"$emitted of $total values emitted, $usedAtEnd bytes still held"
    )
  }

  test("the JVM heap budget makes the table spill where Spark's pool would still grant memory") {
    // The regression behind DMR 0.6 on a 64 MB executor: Spark granted the table its whole pool,
    // more than the heap could hold beside Spark's own objects, and the executor died of OOM.
    def run(budgetBytes: Long): (Int, Long, Long, Seq[Int]) = sc
      .parallelize(Seq(1), 1)
      .mapPartitions { _ =>
        val budget = new HeapBudget(budgetBytes)
        val table = new LeakyHashTable[Int](
          SparkInternals.taskMemoryManager(TaskContext.get()),
          SparkEnv.get.serializer.newInstance(),
          LeakyConf(SparkEnv.get.conf),
          false,
          SparkInternals.spillStorage(),
          budget,
          SpillTriggers.None
        )
        (0 until 20000).foreach(i =>
          table.insert(i % 500, 0, s"value-$i-" + "v" * 40)
        ) // ~1 MB of values
        val heldWhileInserting = budget.heldBytes
        val sizes = table
          .groups(() =>
            new GroupBuilder[Int] {
              private var n = 0
              override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit =
                n += 1
              override def result(): Int = n
            }
          )
          .map(_._2)
          .toSeq
        Iterator((table.spillCount, heldWhileInserting, budget.heldBytes, sizes.distinct))
      }
      .collect()
      .head

    val (unlimitedSpills, _, _, unlimitedSizes) = run(Long.MaxValue)
    val (spills, held, heldAfter, sizes) = run(64L << 10)
    assert(unlimitedSpills == 0, "with the 2.4 MB pool alone the table fits in memory")
    assert(
      spills >= 3,
      s"a 64 KiB budget over the 128 KiB initial threshold must force spills, got $spills"
    )
    assert(
      held <= (64L << 10) && heldAfter == 0,
      s"budget held $held while inserting, $heldAfter after"
    )
    assert(sizes == Seq(40) && unlimitedSizes == Seq(40), "spilled runs merge into whole groups")
  }
}

/** Counts a group's values without decoding them. */
final class CountingBuilder extends GroupBuilder[Int] {
  private var n = 0
  override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit = n += 1
  override def result(): Int = n
}
