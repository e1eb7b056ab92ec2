package dev.levee.bench.spark.hurricane

import java.io.PrintStream

import dev.levee.bench.spark.hurricane.HurricaneBenchSuite.Point
import dev.levee.bench.spark.hurricane.HurricaneReport.median

/** The skewed join's medians per (regime, arm, s): job time, over the arm's own uniform run and over AQE's. */
object JoinReport {
  final case class Row(
      regime: String,
      arm: String,
      s: Double,
      seconds: Double,
      slowdown: Double,
      overAqe: Double,
      clones: Double,
      runs: Int,
      failed: Int
  )

  def rows(points: Seq[Point]): Seq[Row] = {
    def seconds(ps: Seq[Point]) = median(ps.filter(_.ok).map(_.jobSeconds))
    // Points read back may come from several runs: each (arm, s) from its newest, over that run's uniform time.
    val at =
      points.groupBy(p => (p.regime, p.arm, p.s)).view.mapValues(HurricaneReport.newestRun).toMap
    at.toSeq.sortBy { case ((r, a, s), _) => (r, s, a) }.map { case ((regime, arm, s), ps) =>
      val t = seconds(ps)
      val sameRun =
        points.filter(u => u.regime == regime && u.arm == arm && u.s == 0.0 && u.run == ps.head.run)
      val uniform = if (sameRun.isEmpty) Double.NaN else seconds(sameRun)
      val aqe = at.get((regime, "dataset-aqe", s)).map(seconds).getOrElse(Double.NaN)
      Row(
        regime,
        arm,
        s,
        t,
        t / uniform,
        t / aqe,
        median(ps.filter(_.ok).map(_.clones.toDouble)),
        ps.size,
        ps.count(!_.ok)
      )
    }
  }

  def print(out: PrintStream, points: Seq[Point]): Unit = {
    out.println(
      "| regime | s | arm | job s (median) | over own s=0 | over dataset-aqe | clones | runs (failed) |"
    )
    out.println("|---|---|---|---|---|---|---|---|")
    rows(points).foreach { r =>
      out.println(
        f"| ${r.regime} | ${r.s}%.1f | ${r.arm} | ${r.seconds}%.2f | ${r.slowdown}%.2f | ${r.overAqe}%.2f | " +
          f"${r.clones}%.0f | ${r.runs} (${r.failed}) |"
      )
    }
  }
}
