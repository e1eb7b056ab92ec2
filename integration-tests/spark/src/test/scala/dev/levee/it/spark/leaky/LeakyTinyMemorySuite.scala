package dev.levee.it.spark.leaky

import org.scalatest.funsuite.AnyFunSuite

import dev.levee.it.spark.{SharedSparkCluster, SparkTopology}
import dev.levee.it.spark.ShuffleWorkloads._
import dev.levee.it.spark.leaky.LeakyWorkloads._
import dev.levee.leaky.LeakyKeys
import dev.levee.leaky.implicits._

/**
 * Executors whose unified memory pool is about 2 MB (512 MB heap, `spark.memory.fraction` 0.01)
 * against reduce tasks that each hold several MB of values: the leaky table must spill, merge its
 * runs, give the right answer, and say so in Spark's task metrics.
 */
class LeakyTinyMemorySuite extends AnyFunSuite with SharedSparkCluster {

  override protected def topology: SparkTopology = SparkTopology.TwoExecutorJvms

  override protected def sparkSettings: Map[String, String] = Map(
    "spark.shuffle.manager" -> LeakyExecutorProbe.ManagerClass,
    "spark.executor.memory" -> "512m",
    "spark.memory.fraction" -> "0.01",
    // Without these both the table and Spark's own collections would hold 5 MB before asking.
    LeakyKeys.InitialThreshold -> "64k",
    "spark.shuffle.spill.initialMemoryThreshold" -> "64k",
    LeakyKeys.PageSize -> "64k",
    LeakyKeys.MaxRunSegment -> "4k"
  )

  private val ReducePartitions = 2
  private val PoolBytes = ((512L - 300) << 20) / 100 // (heap - Spark's reserved 300 MB) * fraction

  // ~60k values of ~100 bytes: several MB per reduce task.
  private lazy val records = uniformWords(seed = 21, n = 60000, keys = 0 until 8000)
    .map { case (k, v) => k -> (v + "-" * 96) }
  private lazy val right = uniformWords(seed = 22, n = 20000, keys = 4000 until 12000)

  private def reduceAttempts(attempts: Seq[TaskEndRecorder#Attempt]) = {
    val reduceStage = attempts.map(_.stageId).max
    attempts.filter(_.stageId == reduceStage)
  }

  private def withRecorder[T](body: TaskEndRecorder => T): T = {
    val recorder = new TaskEndRecorder
    sc.addSparkListener(recorder)
    try body(recorder)
    finally sc.removeSparkListener(recorder)
  }

  test("groupByKey completes by spilling, right answer, spilled bytes in the task metrics") {
    withRecorder { recorder =>
      val data = records
      val (actual, attempts) = recorder.during() {
        sc.parallelize(data, 4)
          .groupByKey(ReducePartitions)
          .mapValues(vs => multiset(vs))
          .collect()
          .toSeq
      }
      val byKey = actual.toMap
      assert(actual.length == byKey.size && byKey == grouped(data))
      val reduce = reduceAttempts(attempts)
      assert(
        reduce.forall(_.successful) && reduce.size == ReducePartitions,
        s"reduce attempts: $reduce"
      )
      assert(
        reduce.forall(_.diskBytesSpilled > 0),
        s"every reduce task should have spilled: $reduce"
      )
      assert(reduce.forall(_.memoryBytesSpilled > 0), s"memory spilled should be reported: $reduce")
      // Peak memory stays within what the pool could grant (a task may also hold one page beyond).
      assert(
        reduce.forall(a =>
          a.peakExecutionMemory > 0 && a.peakExecutionMemory <= PoolBytes + (128 << 10)
        ),
        s"peak execution memory vs a pool of $PoolBytes bytes: $reduce"
      )
    }
  }

  test("leakyJoin and leakyFullOuterJoin complete by spilling with Spark's answer") {
    withRecorder { recorder =>
      val (l, r) = (sc.parallelize(records, 4), sc.parallelize(right, 2))
      val (inner, attempts) =
        recorder.during()(l.leakyJoin(r, ReducePartitions).mapValues(_._2).collect().toSeq)
      assert(
        reduceAttempts(attempts).forall(_.diskBytesSpilled > 0),
        s"reduce attempts: ${reduceAttempts(attempts)}"
      )
      val expected = joined(records, right).view
        .mapValues(pairs =>
          pairs.toSeq
            .map { case ((_, w), n) => w -> n }
            .groupMapReduce(_._1)(_._2)(_ + _)
        )
        .toMap
      assert(inner.groupMap(_._1)(_._2).view.mapValues(multiset).toMap == expected)

      val full = l
        .leakyFullOuterJoin(r, ReducePartitions)
        .mapValues { case (v, w) => (v.map(_.length), w) }
        .collect()
      val stock = l
        .fullOuterJoin(r, ReducePartitions)
        .mapValues { case (v, w) => (v.map(_.length), w) }
        .collect()
      assert(multiset(full.toSeq) == multiset(stock.toSeq))
    }
  }
}
