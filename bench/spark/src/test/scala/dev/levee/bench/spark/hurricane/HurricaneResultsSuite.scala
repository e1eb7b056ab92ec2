package dev.levee.bench.spark.hurricane

import java.nio.file.Files

import scala.jdk.CollectionConverters._

import dev.levee.bench.results.{Measurement, ResultsStore}
import org.scalatest.funsuite.AnyFunSuite

class HurricaneResultsSuite extends AnyFunSuite {
  private val command = "./levee bench hurricane --regime real"

  private def line(
      arm: String,
      s: Double,
      seconds: Double,
      time: String,
      started: Option[String]
  ): Measurement = {
    val params = Map[String, Object](
      "regime" -> "real CPU",
      "records" -> Long.box(24000000L),
      "slots" -> Int.box(2),
      "s" -> Double.box(s),
      "ok" -> Boolean.box(true)
    ) ++ started.map("run_started" -> _)
    new Measurement(
      "hurricane",
      arm,
      params.asJava,
      Map[String, java.lang.Double]("reduce_seconds" -> seconds, "hottest_share" -> 0.5).asJava,
      0,
      Map.empty[String, Object].asJava,
      "abc1234",
      time,
      command
    )
  }

  test(
    "two runs of one command at one revision stay apart: each point over its own run's uniform time"
  ) {
    val store = new ResultsStore(Files.createTempDirectory("hurricane-results"))
    // The first run measured s = 0 and 3; the second, later, only s = 0 and 1.
    val first = Some("2026-11-30T07:00:00Z")
    store.append(line("stock", 0, 2.0, "2026-11-30T07:00:10Z", first))
    store.append(line("stock", 3, 3.0, "2026-11-30T07:00:20Z", first))
    val second = Some("2026-11-30T08:00:00Z")
    store.append(line("stock", 0, 1.0, "2026-11-30T08:00:10Z", second))
    store.append(line("stock", 1, 1.1, "2026-11-30T08:00:20Z", second))
    val rows = HurricaneReport.rows(HurricaneResults.newestPerPoint(store)).map(r => r.s -> r).toMap
    assert(rows(0.0).reduceSeconds == 1.0, "s = 0 from the newest run")
    assert(rows(1.0).slowdown == 1.1)
    assert(rows(3.0).slowdown == 1.5, "s = 3 over its own run's uniform 2.0 s, not the newer 1.0 s")
  }

  test("older lines without a run stamp are one run per command and revision, as before") {
    val store = new ResultsStore(Files.createTempDirectory("hurricane-results"))
    store.append(line("dynamic", 0, 2.0, "2026-11-29T07:00:10Z", None))
    store.append(line("dynamic", 2, 5.0, "2026-11-29T07:00:20Z", None))
    val rows = HurricaneReport.rows(HurricaneResults.newestPerPoint(store)).map(r => r.s -> r).toMap
    assert(rows(2.0).slowdown == 2.5)
  }
}
