package dev.levee.bench.spark.hurricane

import scala.jdk.CollectionConverters._

import dev.levee.bench.results.{Measurement, ResultsStore}
import dev.levee.bench.spark.hurricane.HurricaneBenchSuite.Point

/**
 * Points back from `hurricane.jsonl`: per workload, regime and arm, those of the newest run that measured that arm
 * (so a run of some arms adds them without hiding the others'). Each arm is normalized to its own uniform run, which
 * is always in the same run as its skewed points.
 */
object HurricaneResults {
  def newestPerArm(store: ResultsStore): Seq[Point] = {
    val lines = store.readAll().asScala.toSeq.filter(_.suite() == "hurricane")
    lines
      .groupBy(m => (workload(m), String.valueOf(m.params().get("regime")), m.variant()))
      .toSeq
      .flatMap { case (_, ms) =>
        val newest = ms.maxBy(_.timestamp())
        ms.filter(m => m.command() == newest.command() && m.gitRevision() == newest.gitRevision())
          .map(point)
      }
  }

  private def workload(m: Measurement): String =
    String.valueOf(m.params().getOrDefault("workload", "clicklog"))

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
      largestTaskSpilledBytes = metric("largest_task_spilled_bytes").toLong,
      shuffleBytesRead = metric("shuffle_bytes_read").toLong,
      workload = workload(m)
    )
  }
}
