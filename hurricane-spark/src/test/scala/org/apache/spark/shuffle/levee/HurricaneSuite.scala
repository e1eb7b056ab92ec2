package org.apache.spark.shuffle.levee

import dev.levee.hurricane.TaskCounters
import dev.levee.hurricane.api.Hurricane._
import org.apache.spark.{SparkConf, SparkException}
import org.apache.spark.rdd.RDD

/**
 * Hurricane on a real local-cluster (two executor JVMs, one slot each): every merge shape on Zipf data equals the
 * answer computed in the driver without Spark, a skewed partition really gets clones whose partials are merged, a
 * uniform one gets none, nor does a hot partition of distinct keys (its merge would redo the work), and the shuffle
 * bytes read by owners and clones together equal a stock read's.
 *
 * Clone decisions are scaled down for small data ([[HurricaneTestConf]]). The reduce work is emulated (a 1 ms park every 40 records), so the test
 * exercises scheduling and merging, not this machine's CPU.
 */
class HurricaneSuite extends HurricaneJobSuite {
  override protected def extraConf(conf: SparkConf): SparkConf =
    HurricaneTestConf
      .scaledDown(conf)
      .set("spark.levee.hurricane.join.buildMaxBytes", "256k")

  test("every merge shape equals the driver's answer on Zipf keys at s = 0, 1 and 3") {
    for (s <- Seq(0.0, 1.0, 3.0)) {
      val z = ZipfRecords(s, keys = 300, slices = maps, perSlice = 3000)
      val data = z.all
      val rdd = records(z)
      val byKey = data.groupMap(_._1)(_._2)
      withClue(s"s=$s reduceByKey: ")(
        assert(rdd.reduceByKey(part, _ + _).collect().toMap == byKey.view.mapValues(_.sum).toMap)
      )
      withClue(s"s=$s foldByKey: ")(
        assert(rdd.foldByKey(0, part)(_ + _).collect().toMap == byKey.view.mapValues(_.sum).toMap)
      )
      withClue(s"s=$s groupByKey: ") {
        assert(
          rdd.groupByKey(part).mapValues(_.toVector.sorted).collect().toMap == byKey.view
            .mapValues(_.sorted)
            .toMap
        )
      }
      withClue(s"s=$s aggregateByKey: ") {
        val residues =
          rdd.aggregateByKey(Set.empty[Int], part)((acc, v) => acc + v % 7, _ ++ _).collect().toMap
        assert(residues == byKey.view.mapValues(_.map(_ % 7).toSet).toMap)
      }
      withClue(s"s=$s combineByKey without map-side combine: ") {
        val counts = rdd
          .combineByKey[Long](
            (_: Int) => 1L,
            (c: Long, _: Int) => c + 1,
            (a: Long, b: Long) => a + b,
            part,
            mapSideCombine = false
          )
          .collect()
          .toMap
        assert(counts == byKey.view.mapValues(_.size.toLong).toMap)
      }
      withClue(s"s=$s countByKey: ")(
        assert(rdd.countByKey() == byKey.view.mapValues(_.size.toLong).toMap)
      )
      withClue(s"s=$s distinct: ")(
        assert(rdd.map(_._1).distinct(partitions).collect().sorted.toSeq == byKey.keys.toSeq.sorted)
      )
      withClue(s"s=$s sortByKey: ") {
        val sorted = rdd.sortByKey(numPartitions = partitions).collect().toSeq
        assert(sorted.map(_._1) == data.map(_._1).sorted)
        assert(sorted.sorted == data.sorted)
      }
      withClue(s"s=$s a plain partitionBy passes through: ") {
        assert(rdd.partitionBy(part).collect().sorted.toSeq == data.sorted)
      }
    }
    assert(metrics.bagsOpened.sum() > 0)
  }

  /** A combine whose reduce side costs about 25 µs per record (parked, not spun), without map-side combine. */
  private def slowCounts(rdd: RDD[(Int, Int)]): Map[Int, Long] =
    rdd
      .combineByKey[Long](
        (_: Int) => 1L,
        (c: Long, v: Int) => { if (v % 40 == 0) Thread.sleep(1); c + 1 },
        (a: Long, b: Long) => a + b,
        part,
        mapSideCombine = false
      )
      .collect()
      .toMap

  test("a skewed partition gets clones whose partials are merged; bytes read equal stock's") {
    val z = ZipfRecords(3.0, keys = 300, slices = maps, perSlice = 20000)
    val want = z.all.groupMapReduce(_._1)(_ => 1L)(_ + _)
    val rdd = records(z)
    val (stockCounts, stockBytes) = measured(stock(slowCounts(rdd)))
    assert(stockCounts == want)
    assert(counted(TaskCounters.Chunks) == 0, "a job with Hurricane off counted chunks")
    val startedBefore = metrics.clonesStarted.sum()
    val doneBefore = metrics.clonesDone.sum()
    val grantedBefore = metrics.chunksGranted.sum()
    val (counts, bytes) = measured(slowCounts(rdd))
    assert(counts == want)
    println(
      s"[hurricane] skewed s=3: clones started ${metrics.clonesStarted.sum() - startedBefore}, merged " +
        s"${metrics.clonesDone.sum() - doneBefore}, given up ${metrics.clonesGivenUp.sum()}, chunks granted " +
        s"${metrics.chunksGranted.sum()}, replayed ${metrics.chunksReplayed.sum()}; shuffle bytes $bytes (stock $stockBytes)"
    )
    assert(metrics.clonesStarted.sum() > startedBefore, "no clone started for the hot partition")
    assert(metrics.clonesDone.sum() > doneBefore, "no clone's partial was merged")
    assert(
      bytes == stockBytes,
      s"owner and clones read $bytes shuffle bytes, stock read $stockBytes"
    )
    // The tasks' own counts, as Spark's UI shows them: every chunk read once by a successful attempt, every
    // merged partial counted by its owner, and the owner's wait and merge reported.
    println(
      "[hurricane] task counters: " +
        TaskCounters.All.map(c => s"${c.name} ${counted(c)}").mkString(", ")
    )
    assert(counted(TaskCounters.Chunks) == metrics.chunksGranted.sum() - grantedBefore)
    assert(counted(TaskCounters.ClonesMerged) == metrics.clonesDone.sum() - doneBefore)
    assert(reported(TaskCounters.OwnerWaitMs) && reported(TaskCounters.MergeMs))
    val stagesShowing = sc.statusStore
      .stageList(null)
      .filter(_.accumulatorUpdates.exists(_.name == TaskCounters.Chunks.name))
    assert(stagesShowing.nonEmpty, "no stage page lists hurricane.chunks")
  }

  test(
    "an aggregation of mostly distinct keys gets no clone: the merge a clone would add is weighed"
  ) {
    val (combined, want) = distinctKeysCombine()
    val startedBefore = metrics.clonesStarted.sum()
    assert(measured(combined.collect().toMap)._1 == want)
    // The same job gets clones with the merge not weighed (HurricaneSpillSuite): here the policy refused them.
    assert(
      metrics.clonesStarted.sum() == startedBefore,
      "a clone started although each of its keys would be merged again"
    )
    assert(counted(TaskCounters.Chunks) > 0, "the job read no bag")
  }

  test("a uniform job starts no clone") {
    val z = ZipfRecords(0.0, keys = 3000, slices = maps, perSlice = 8000)
    val want = z.all.groupMapReduce(_._1)(_ => 1L)(_ + _)
    val before = metrics.clonesStarted.sum()
    assert(measured(slowCounts(records(z)))._1 == want)
    assert(metrics.clonesStarted.sum() == before)
    assert(counted(TaskCounters.Chunks) > 0, "the owners' chunks are counted")
    assert(counted(TaskCounters.ClonesMerged) == 0)
  }

  /** A build side for joins: 1-3 rows per key, and keys the probe side never has. */
  private def buildRows(keys: Int): Vector[(Int, String)] =
    (0 until keys + 50).flatMap(k => (0 until 1 + k % 3).map(i => (k, s"$k.$i"))).toVector

  private def joined(
      probe: Seq[(Int, Int)],
      build: Seq[(Int, String)]
  ): Vector[(Int, (Int, String))] = {
    val byKey = build.groupMap(_._1)(_._2)
    probe.flatMap { case (k, v) => byKey.getOrElse(k, Nil).map(w => (k, (v, w))) }.toVector.sorted
  }

  test("hurricaneJoin equals stock join and the driver's answer on Zipf keys at s = 0, 1 and 3") {
    val build = buildRows(300)
    for (s <- Seq(0.0, 1.0, 3.0)) {
      val z = ZipfRecords(s, keys = 300, slices = maps, perSlice = 3000)
      val want = joined(z.all, build)
      val probe = records(z)
      val buildRdd = sc.parallelize(build, 3)
      val ours = probe.hurricaneJoin(buildRdd, part)
      withClue(s"s=$s: ")(assert(ours.collect().toVector.sorted == want))
      withClue(s"s=$s against stock join: ")(
        assert(want == probe.join(buildRdd, part).collect().toVector.sorted)
      )
      withClue(s"s=$s with Hurricane off for the job: ")(
        assert(stock(ours.collect().toVector.sorted) == want)
      )
      assert(ours.partitioner.contains(part), "keys stay in their partition, as with join")
    }
  }

  test(
    "a skewed hurricaneJoin gets clones, each loading the build side; the output equals stock's"
  ) {
    val z = ZipfRecords(3.0, keys = 300, slices = maps, perSlice = 20000)
    val build = buildRows(300)
    val want = joined(z.all, build).size.toLong
    val startedBefore = metrics.clonesStarted.sum()
    val doneBefore = metrics.clonesDone.sum()
    // The owner's consumer is slow (a 1 ms park every 40 pairs), so the hot partition's bag drains slowly.
    val pairs = records(z)
      .hurricaneJoin(sc.parallelize(build, 3), part)
      .mapPartitions(it =>
        it.zipWithIndex.map { case (p, i) => if (i % 40 == 0) Thread.sleep(1); p }
      )
    val digest = pairs.map { case (k, (v, w)) => (k.toLong * 31 + v) ^ w.hashCode }.collect()
    assert(digest.length.toLong == want)
    assert(
      digest.sorted.toSeq == stock(
        pairs
          .map { case (k, (v, w)) => (k.toLong * 31 + v) ^ w.hashCode }
          .collect()
      ).sorted.toSeq
    )
    assert(metrics.clonesStarted.sum() > startedBefore, "no clone started for the hot partition")
    assert(metrics.clonesDone.sum() > doneBefore, "no clone's joined partial was merged")
  }

  test(
    "hurricaneJoinWithMerge: clones aggregate their own joined pairs; the sums equal the driver's"
  ) {
    val z = ZipfRecords(3.0, keys = 300, slices = maps, perSlice = 20000)
    val build = buildRows(300)
    val want =
      joined(z.all, build).groupMapReduce(_._1)(p => p._2._1.toLong + p._2._2.length)(_ + _)
    val startedBefore = metrics.clonesStarted.sum()
    val sums = records(z)
      .hurricaneJoinWithMerge(sc.parallelize(build, 3), part) { pairs =>
        val m = scala.collection.mutable.HashMap.empty[Int, Long]
        pairs.zipWithIndex.foreach { case ((k, (v, w)), i) =>
          if (i % 40 == 0) Thread.sleep(1)
          m(k) = m.getOrElse(k, 0L) + v + w.length
        }
        m.iterator
      }(parts => parts.flatten.toSeq.groupMapReduce(_._1)(_._2)(_ + _).iterator)
      .collect()
      .toMap
    assert(sums == want)
    assert(metrics.clonesStarted.sum() > startedBefore, "no clone started for the hot partition")
  }

  test(
    "a build partition above join.buildMaxBytes fails with the key's name, not an out-of-memory error"
  ) {
    val big = sc.parallelize(0 until 60000, 4).map(i => (i % 4, "x" * 20))
    val e = intercept[SparkException] {
      sc.parallelize(Seq((1, 1)), 1).hurricaneJoin(big, part).count()
    }
    assert(e.getMessage.contains("spark.levee.hurricane.join.buildMaxBytes"), e.getMessage)
  }

  test("array keys are refused, as stock pair operations refuse them") {
    val arrays = sc.parallelize(Seq((Array(1), 1)))
    val e = intercept[IllegalArgumentException](arrays.hurricaneJoin(arrays, part))
    assert(e.getMessage.contains("array keys"))
  }

  test(
    "mapPartitionsWithMerge: clones share a skewed partition; aggregation and sort merges equal the driver's"
  ) {
    val z = ZipfRecords(3.0, keys = 300, slices = maps, perSlice = 20000)
    val data = z.all
    val startedBefore = metrics.clonesStarted.sum()
    // f: a count per key, slow (a 1 ms park every 40 records); merge: sum equal keys.
    val counts = records(z)
      .mapPartitionsWithMerge(part) { it =>
        val m = scala.collection.mutable.HashMap.empty[Int, Long]
        it.zipWithIndex.foreach { case ((k, _), i) =>
          if (i % 40 == 0) Thread.sleep(1)
          m(k) = m.getOrElse(k, 0L) + 1
        }
        m.iterator
      }(parts => parts.flatten.toSeq.groupMapReduce(_._1)(_._2)(_ + _).iterator)
      .collect()
      .toMap
    assert(counts == data.groupMapReduce(_._1)(_ => 1L)(_ + _))
    assert(metrics.clonesStarted.sum() > startedBefore, "no clone started for the hot partition")

    // f: sort; merge: the sorted parts merged (here by a sort of their concatenation, as a user might).
    val sorted = records(z)
      .mapPartitionsWithMerge(part)(it => it.toVector.sorted.iterator) { parts =>
        parts.flatMap(_.toVector).toVector.sorted.iterator
      }
      .glom()
      .collect()
    sorted.foreach(p => assert(p.toSeq == p.toSeq.sorted))
    assert(sorted.flatten.toVector.sorted == data.sorted)
  }
}
