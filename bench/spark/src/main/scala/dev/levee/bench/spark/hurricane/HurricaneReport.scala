package dev.levee.bench.spark.hurricane

import java.io.PrintStream

import dev.levee.bench.spark.hurricane.HurricaneBenchSuite.Point

/** Medians per (regime, arm, s), each arm's slowdown over its own uniform run (in the same run), beside the two bounds. */
object HurricaneReport {
  final case class Row(
      regime: String,
      arm: String,
      s: Double,
      reduceSeconds: Double,
      slowdown: Double,
      tight: Double,
      amdahl: Double,
      clones: Double,
      maxTask: Double,
      medianTask: Double,
      spilledBytes: Double,
      runs: Int,
      failed: Int
  )

  def median(xs: Seq[Double]): Double =
    if (xs.isEmpty) Double.NaN
    else {
      val s = xs.sorted
      if (s.size % 2 == 1) s(s.size / 2) else (s(s.size / 2 - 1) + s(s.size / 2)) / 2
    }

  /** The points of the newest run among `ps` (runs are named by their start, which sorts by age). */
  def newestRun(ps: Seq[Point]): Seq[Point] = {
    val run = ps.map(_.run).max; ps.filter(_.run == run)
  }

  def rows(points: Seq[Point]): Seq[Row] =
    points.groupBy(p => (p.regime, p.arm)).toSeq.sortBy(_._1).flatMap { case ((regime, arm), ps) =>
      // Points read back may come from several runs: each exponent's from its newest, over that run's uniform time.
      val uniformOf = ps
        .filter(_.s == 0.0)
        .groupBy(_.run)
        .view
        .mapValues(u => median(u.filter(_.ok).map(_.reduceSeconds)))
        .toMap
      val bySkew = ps.groupBy(_.s).view.mapValues(newestRun)
      bySkew.toSeq.sortBy(_._1).map { case (s, at) =>
        val uniform = uniformOf.getOrElse(at.head.run, Double.NaN)
        val ok = at.filter(_.ok)
        val t = median(ok.map(_.reduceSeconds))
        Row(
          regime,
          arm,
          s,
          t,
          t / uniform,
          at.head.tightBound,
          at.head.amdahlBound,
          median(ok.map(_.clones.toDouble)),
          median(ok.map(_.maxTaskSeconds)),
          median(ok.map(_.medianTaskSeconds)),
          median(ok.map(_.spilledBytes.toDouble)),
          at.size,
          at.size - ok.size
        )
      }
    }

  def print(out: PrintStream, points: Seq[Point]): Unit = {
    out.println(
      "| regime | arm | s | reduce s (median) | slowdown vs own s=0 | tight bound | Amdahl bound | slowdown / Amdahl | clones | max / median task s | spilled MB | runs (failed) |"
    )
    out.println("|---|---|---|---|---|---|---|---|---|---|---|---|")
    rows(points).foreach { r =>
      out.println(
        f"| ${r.regime} | ${r.arm} | ${r.s}%.1f | ${r.reduceSeconds}%.2f | ${r.slowdown}%.2f | ${r.tight}%.2f | ${r.amdahl}%.2f | " +
          f"${r.slowdown / r.amdahl}%.2f | ${r.clones}%.0f | ${r.maxTask}%.2f / ${r.medianTask}%.2f | ${r.spilledBytes / 1e6}%.1f | ${r.runs} (${r.failed}) |"
      )
    }
  }

  /**
   * The spill table of ClickLog's (region, IP) pairs: per regime, s and arm, medians of the reduce stage, the
   * clones, the bytes the task that spilled most wrote (stock's hot task; Hurricane's owner or a clone) and all
   * tasks' spill, with stock's largest over the arm's.
   */
  def printSpills(out: PrintStream, points: Seq[Point]): Unit = {
    out.println(
      "| regime | s | arm | reduce s | clones | largest task's spill MB | all tasks' spill MB | stock's largest ÷ this | runs (failed) |"
    )
    out.println("|---|---|---|---|---|---|---|---|---|")
    def largest(ps: Seq[Point]): Double = median(
      ps.filter(_.ok).map(_.largestTaskSpilledBytes.toDouble)
    )
    points.groupBy(p => (p.regime, p.s)).toSeq.sortBy(_._1).foreach { case ((regime, s), at) =>
      val stock = largest(at.filter(_.arm == "stock"))
      at.groupBy(_.arm).toSeq.sortBy(_._1).foreach { case (arm, ps) =>
        val ok = ps.filter(_.ok)
        val mine = largest(ps)
        out.println(
          f"| $regime | $s%.1f | $arm | ${median(ok.map(_.reduceSeconds))}%.2f | ${median(ok.map(_.clones.toDouble))}%.0f | " +
            f"${mine / 1e6}%.1f | ${median(ok.map(_.spilledBytes.toDouble)) / 1e6}%.1f | ${stock / mine}%.2f | ${ps.size} (${ps.size - ok.size}) |"
        )
      }
    }
  }
}
