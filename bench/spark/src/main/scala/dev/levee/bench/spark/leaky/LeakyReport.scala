package dev.levee.bench.spark.leaky

import java.io.PrintStream

/**
 * The table a person reads after a sweep: per point, stock and leaky medians side by side with the speed-up
 * (stock time / leaky time), then per curve the smallest heap keeping each variant within 5% of stock's best.
 */
object LeakyReport {

  def print(
      out: PrintStream,
      plan: LeakySweepPlan,
      inputs: Seq[LeakyInput],
      summaries: Seq[PointSummary]
  ): Unit = {
    out.println(
      f"leaky: ${plan.records}%,d records per dataset; inputs ${inputs.map(i => f"${i.dataset} ${i.mainBytes / 1e6}%.1f MB").mkString(", ")}; ${plan.repetitions} repetition(s), medians; " +
        s"reduce time in s, GC = GC share of reduce task time, peak = largest task peak execution memory"
    )
    out.println(
      f"${"op"}%-7s ${"data"}%-7s ${"gc"}%-8s ${"heap"}%5s ${"R"}%3s ${"DMR"}%6s | " +
        f"${"stock s"}%8s ${"GC"}%4s ${"peak MB"}%7s | ${"leaky s"}%8s ${"GC"}%4s ${"peak MB"}%7s | ${"speedup"}%7s"
    )
    val byPoint = summaries.groupBy(_.key)
    byPoint.keys.toSeq.sortBy(k => (k.op, k.dataset, k.gc, k.memoryMb, k.reduceTasks)).foreach {
      k =>
        val stock = byPoint(k).find(_.variant == LeakySuite.Stock)
        val leaky = byPoint(k).find(_.variant == LeakySuite.Leaky)
        val speedup =
          for (s <- stock.flatMap(_.reduceSeconds); l <- leaky.flatMap(_.reduceSeconds)) yield s / l
        out.println(
          f"${k.op}%-7s ${k.dataset}%-7s ${k.gc}%-8s ${k.memoryMb + "m"}%5s ${k.reduceTasks}%3d " +
            f"${byPoint(k).head.dmr}%6.3f | ${cells(stock)} | ${cells(leaky)} | " +
            f"${speedup.fold("-")(x => f"$x%.2fx")}%7s"
        )
    }
    out.println(
      "smallest heap with median reduce time within 5% of stock's best on the same curve:"
    )
    summaries
      .map(_.key.curve)
      .distinct
      .sortBy(c => (c.op, c.dataset, c.gc, c.reduceTasks))
      .foreach { c =>
        def smallest(v: String) =
          SweepResults
            .smallestMemoryWithinTolerance(summaries, c, v, LeakySuite.Stock)
            .fold("none")(_ + "m")
        val best =
          SweepResults.stockBest(summaries, c, LeakySuite.Stock).fold("-")(b => f"$b%.2f s")
        out.println(
          f"  ${c.op}%-7s ${c.dataset}%-7s ${c.gc}%-8s R=${c.reduceTasks}%-3d stock best $best%8s: " +
            s"stock ${smallest(LeakySuite.Stock)}, leaky ${smallest(LeakySuite.Leaky)}"
        )
      }
    val mismatches = summaries.map(_.mismatches).sum
    if (mismatches > 0)
      out.println(
        s"WARNING: $mismatches run(s) produced output different from the first run of the point"
      )
  }

  private def cells(s: Option[PointSummary]): String = s match {
    case None                               => f"${"-"}%8s ${""}%4s ${""}%7s"
    case Some(p) if p.reduceSeconds.isEmpty => f"${"FAILED"}%8s ${""}%4s ${""}%7s"
    case Some(p)                            =>
      val failed = if (p.failures > 0) s"${p.failures}F" else ""
      f"${p.reduceSeconds.get}%7.2f$failed%1s ${p.gcShare.get * 100}%3.0f%% ${p.peakMemoryBytes.get / 1e6}%7.1f"
  }
}
