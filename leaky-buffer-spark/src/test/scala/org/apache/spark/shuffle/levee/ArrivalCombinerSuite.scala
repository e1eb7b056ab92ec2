package org.apache.spark.shuffle.levee

import scala.collection.mutable

import dev.levee.leaky.LeakyConf
import dev.levee.leaky.TestData
import dev.levee.leaky.aggregate.{ArrivalCombiner, TaskTable}
import dev.levee.leaky.table.SpillTriggers
import org.apache.spark.{HashPartitioner, SparkEnv, TaskContext}
import org.apache.spark.serializer.JavaSerializer

/**
 * The arrival path of map-side-combined collections, run inside real tasks (the task's memory manager, a real leaky
 * table): below its bound it is Spark's own map and never makes a table; above it, it moves its combiners into the
 * table as often as it fills, and what the table emits equals the combine on arrival.
 */
class ArrivalCombinerSuite extends LeakySparkSuite {
  import ArrivalCombinerSuite._

  // Zipf keys, and a null key for every 97th record.
  private val data = TestData.zipfPairs(20000, 500, seed = 7).zipWithIndex.map { case ((k, v), i) =>
    (if (i % 97 == 0) null else k, v)
  }
  private val expected: Map[String, Set[String]] =
    data.groupBy(_._1).map { case (k, vs) => k -> vs.map(_._2).toSet }

  private def combineIn(
      capBytes: Long,
      triggers: SpillTriggers
  ): (Map[String, Set[String]], Int) = {
    val out = sc
      .parallelize(data, 3)
      // One mutable set per record, as map-side combiners arrive, each key in one partition.
      .map { case (k, v) => (k, mutable.HashSet(v)) }
      .partitionBy(new HashPartitioner(3))
      .mapPartitions(combined(capBytes, triggers))
      .collect()
    val moves = out.collect { case (Moves, (n, _)) => n }.sum
    val groups = out.collect { case (k, (_, s)) if k != Moves => k -> s.toSet }
    assert(groups.length == groups.map(_._1).distinct.length, "each key once")
    (groups.toMap, moves)
  }

  test("below its bound it combines on arrival and never makes a table") {
    val (groups, moves) = combineIn(1L << 40, SpillTriggers.None)
    assert(moves == 0)
    assert(groups == expected)
  }

  test(
    "past a small object bound its combiners move into the table, repeatedly, and still equal the reference"
  ) {
    val (groups, moves) = combineIn(64L << 10, SpillTriggers.None)
    assert(moves > 3, s"a 64 KiB bound over ~20,000 sets must move several times, moved $moves")
    assert(groups == expected)
  }

  test("Spark's forced-spill threshold moves the combiners as it spills Spark's own map") {
    val (groups, moves) =
      combineIn(1L << 40, SpillTriggers(maxRecords = 1000, maxBytes = Long.MaxValue))
    assert(moves >= 18, s"20,000 records in 3 tasks, moved every 1,000: moved $moves")
    assert(groups == expected)
  }
}

object ArrivalCombinerSuite {

  /** The marker record that carries a task's move count (not a key of the data). */
  val Moves = "\u0000moves"

  /** Combines a partition's (key, set) records and appends (Moves, (moves, null)). */
  def combined(capBytes: Long, triggers: SpillTriggers)(
      records: Iterator[(String, mutable.HashSet[String])]
  ): Iterator[(String, (Int, mutable.HashSet[String]))] = {
    val context = TaskContext.get()
    val conf = LeakyConf(SparkEnv.get.conf)
    val combiner = new ArrivalCombiner[String, mutable.HashSet[String]](
      context,
      (a, b) => a ++= b,
      capBytes,
      conf.initialMemoryThreshold,
      triggers,
      () => SparkInternals.newCombinerMap(),
      () =>
        new TaskTable[String](
          context,
          new JavaSerializer(SparkEnv.get.conf),
          conf,
          joinLayout = false
        )
    )
    val out = combiner.combine(records).map { case (k, s) => (k, (0, s)) }.toVector
    (out :+ (Moves -> (combiner.movesToTable, null))).iterator
  }
}
