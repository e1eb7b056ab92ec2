package dev.levee.bench.spark.leaky

import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import dev.levee.bench.results.{Measurement, ResultsStore}
import org.scalatest.funsuite.AnyFunSuite

class LeakyFiguresSuite extends AnyFunSuite {

  /** One run of one point: 40 MB of uniform keys, ParallelGC, as the suite records it. */
  private def run(
      revision: String,
      command: String,
      variant: String,
      op: String,
      memoryMb: Int,
      reduceTasks: Int,
      seconds: Double,
      failed: Boolean
  ): Measurement =
    new Measurement(
      "leaky",
      variant,
      Map[String, Object](
        "kind" -> "point",
        "op" -> op,
        "dataset" -> "uniform",
        "gc" -> "parallel",
        "executor_memory_mb" -> Integer.valueOf(memoryMb),
        "reduce_tasks" -> Integer.valueOf(reduceTasks),
        "records" -> java.lang.Long.valueOf(2000000L),
        "input_bytes" -> java.lang.Long.valueOf(40000000L),
        "dmr" -> f"${40.0 / reduceTasks / memoryMb}%.3f"
      ).asJava,
      Map[String, java.lang.Double](
        "failed" -> Double.box(if (failed) 1.0 else 0.0),
        "reduce_stage_seconds" -> Double.box(seconds),
        "reduce_gc_share" -> Double.box(0.1)
      ).asJava,
      0,
      Map.empty[String, Object].asJava,
      revision,
      "2026-11-30T00:00:00Z",
      command
    )

  private def store(ms: Seq[Measurement]): ResultsStore = {
    val dir = Files.createTempDirectory("leaky-figures")
    val s = new ResultsStore(dir)
    ms.foreach(s.append)
    s
  }

  // An older sweep over reduce-task counts at one heap, then a newer memory ladder at one count (stock finishing from
  // 64 MB, leaky from 48 MB).
  private val sweep = for {
    v <- Seq("stock", "leaky"); op <- Seq("groupby", "join"); r <- Seq(1, 2, 8)
  } yield run("a" * 40, "sweep", v, op, 64, r, 2.0 + r, failed = v == "stock" && r == 1)
  private val ladder = for {
    v <- Seq("stock", "leaky"); op <- Seq("groupby", "join"); m <- Seq(32, 48, 64, 128)
  } yield run(
    "b" * 40,
    "ladder",
    v,
    op,
    m,
    8,
    256.0 / m,
    failed = m == 32 || (v == "stock" && m == 48)
  )

  // The newest: two reduce-task counts at a large heap, a slope rather than a sweep, and no ladder.
  private val slope = for {
    v <- Seq("stock", "leaky"); op <- Seq("groupby", "join"); r <- Seq(2, 8)
  } yield run("c" * 40, "slope", v, op, 256, r, 1.0, failed = false)

  private def names(ds: Seq[LeakyFigures.Drawn]): Map[String, String] =
    ds.map(d => d.file.getFileName.toString -> d.revision.take(1)).toMap

  test("each figure from the newest revision that can draw it, never two revisions on one figure") {
    val s = store(sweep ++ ladder ++ slope)
    val drawn = LeakyFigures.writeFromResults(s, None)
    assert(
      names(drawn) == Map(
        "leaky-dmr-sweep-groupby.png" -> "a",
        "leaky-dmr-sweep-join.png" -> "a",
        "leaky-gc-share-64m.png" -> "a",
        "leaky-memory-ladder-groupby.png" -> "b",
        "leaky-memory-ladder-join.png" -> "b",
        "leaky-gc-share-ladder.png" -> "b"
      )
    )
    drawn.foreach(d => assert(Files.size(d.file) > 10000, d.file))
  }

  test("a revision asked for draws only what its own points can") {
    val drawn = LeakyFigures.writeFromResults(store(sweep ++ ladder), Some("a"))
    assert(
      names(drawn).keySet == Set(
        "leaky-dmr-sweep-groupby.png",
        "leaky-dmr-sweep-join.png",
        "leaky-gc-share-64m.png"
      )
    )
  }

  test("results with no revision measuring both stock and leaky are refused by name") {
    val onlyLeaky = ladder.filter(_.variant == "leaky")
    val e =
      intercept[IllegalArgumentException](LeakyFigures.writeFromResults(store(onlyLeaky), None))
    assert(e.getMessage.contains("measured both stock and leaky"))
  }
}
