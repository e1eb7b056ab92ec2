package dev.levee.bench.spark.hurricane

import scala.jdk.CollectionConverters._

import dev.levee.bench.results.{Measurement, ResultsStore}
import dev.levee.bench.spark.hurricane.HurricaneBenchSuite.Point

/** Points back from `hurricane.jsonl`: per regime, those of its newest run (the command that measured it last). */
object HurricaneResults {
  def newestPerRegime(store: ResultsStore): Seq[Point] = {
    val lines = store.readAll().asScala.toSeq.filter(_.suite() == "hurricane")
    lines.groupBy(m => String.valueOf(m.params().get("regime"))).toSeq.flatMap { case (_, ms) =>
      val newest = ms.maxBy(_.timestamp())
      ms.filter(m => m.command() == newest.command() && m.gitRevision() == newest.gitRevision())
        .map(point)
    }
  }

  private def point(m: Measurement): Point = {
    val p = m.params()
    def metric(k: String): Double = Option(m.metrics().get(k)).map(_.doubleValue()).getOrElse(0.0)
    Point(
      regime = String.valueOf(p.get("regime")),
      slots = p.get("slots").toString.toInt,
      arm = m.variant(),
      s = p.get("s").toString.toDouble,
      f = metric("hottest_share"),
      rep = m.repetition(),
      ok = p.get("ok").toString.toBoolean,
      error = String.valueOf(p.getOrDefault("error", "")),
      jobSeconds = metric("job_seconds"),
      reduceSeconds = metric("reduce_seconds"),
      maxTaskSeconds = metric("max_task_seconds"),
      medianTaskSeconds = metric("median_task_seconds"),
      clones = metric("clones").toLong,
      spilledBytes = metric("spilled_bytes").toLong,
      shuffleBytesRead = metric("shuffle_bytes_read").toLong,
      workload = String.valueOf(p.getOrDefault("workload", "clicklog"))
    )
  }
}
