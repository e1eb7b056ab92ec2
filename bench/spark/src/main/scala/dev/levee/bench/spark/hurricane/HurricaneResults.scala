package dev.levee.bench.spark.hurricane

import scala.jdk.CollectionConverters._

import dev.levee.bench.results.{Measurement, ResultsStore}
import dev.levee.bench.spark.hurricane.HurricaneBenchSuite.Point

/**
 * Points back from `hurricane.jsonl`: per workload, regime, arm and exponent, those of the newest run that measured
 * that point (so a run of some arms or exponents adds them without hiding the others'). A ClickLog point is
 * normalized to its arm's uniform run in the same run, so it is taken only from a run that also measured s = 0, and
 * that run's uniform points come with it.
 */
object HurricaneResults {
  def newestPerPoint(store: ResultsStore): Seq[Point] = {
    val lines = store.readAll().asScala.toSeq.filter(_.suite() == "hurricane")
    // A run is named by its start (lines since 2026-11-30 say it: `run_started`; older ones are told apart by command
    // and revision, and named by their first line's time). ISO times sort as text, so runs sort by age.
    val points = lines
      .groupBy(m =>
        (m.command(), m.gitRevision(), Option(m.params().get("run_started")).map(String.valueOf))
      )
      .values
      .flatMap { ms =>
        val started = Option(ms.head.params().get("run_started")).map(String.valueOf)
        val run = started.getOrElse(ms.map(_.timestamp()).min)
        ms.map(m => point(m).copy(run = run, revision = m.gitRevision()))
      }
      .toSeq
    points.groupBy(p => (p.workload, p.regime, p.arm)).toSeq.flatMap {
      case ((workload, _, _), ps) =>
        val byRun = ps.groupBy(_.run)
        // ClickLog's rows and the join's are read over the arm's own uniform time (and the join's over AQE's at the
        // same s), so both come from runs that measured s = 0 too, with that run's uniform points.
        val normalized = workload == "clicklog" || workload == "join"
        ps.map(_.s)
          .distinct
          .flatMap { s =>
            val candidates = byRun.filter { case (_, rp) =>
              rp.exists(_.s == s) && (!normalized || rp.exists(_.s == 0.0))
            }
            if (candidates.isEmpty) Nil
            else {
              val (_, chosen) = candidates.maxBy(_._1)
              chosen.filter(p => p.s == s || (normalized && p.s == 0.0))
            }
          }
          .distinct
    }
  }

  private def workload(m: Measurement): String =
    String.valueOf(m.params().getOrDefault("workload", "clicklog"))

  private def point(m: Measurement): Point = {
    val p = m.params()
    def metric(k: String): Double = Option(m.metrics().get(k)).map(_.doubleValue()).getOrElse(0.0)
    Point(
      regime = HurricaneBenchSuite.regimeName(
        String.valueOf(p.get("regime")),
        p.get("records").toString.toLong
      ),
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
