package dev.levee.bench.spark.leaky

import java.io.PrintStream

/**
 * The table a person reads after a sweep: per point, each variant's median reduce time, GC share and peak memory
 * side by side, and how much faster leaky is than stock and than each DataFrame variant (their time / leaky's);
 * then per curve the smallest memory keeping each variant within 5% of stock's best.
 */
object LeakyReport {

  def print(
      out: PrintStream,
      plan: LeakySweepPlan,
      inputs: Seq[LeakyInput],
      summaries: Seq[PointSummary]
  ): Unit = {
    val variants = plan.variants
    val others = variants.filterNot(_ == LeakySuite.Leaky)
    out.println(
      f"leaky: ${plan.records}%,d records per dataset; inputs ${inputs.map(i => f"${i.dataset} ${i.mainBytes / 1e6}%.1f MB").mkString(", ")}; ${plan.repetitions * plan.runsPerCluster} run(s) per point, medians; " +
        s"reduce time in s, GC = GC share of reduce task time, peak = largest task peak execution memory; " +
        s"x = variant's time / leaky's"
    )
    out.println(
      f"${"op"}%-9s ${"data"}%-7s ${"gc"}%-8s ${"mem"}%5s ${"R"}%3s ${"DMR"}%6s" +
        variants.map(v => f" | ${v.take(17)}%-17s").mkString +
        (if (variants.contains(LeakySuite.Leaky)) others.map(v => f" | ${v.take(9)}%9s x").mkString
         else "")
    )
    val byPoint = summaries.groupBy(_.key)
    byPoint.keys.toSeq.sortBy(k => (k.op, k.dataset, k.gc, k.memoryMb, k.reduceTasks)).foreach {
      k =>
        def of(v: String) = byPoint(k).find(_.variant == v)
        val leaky = of(LeakySuite.Leaky).flatMap(_.reduceSeconds)
        val ratios =
          if (!variants.contains(LeakySuite.Leaky)) ""
          else
            others.map { v =>
              val x = for (o <- of(v).flatMap(_.reduceSeconds); l <- leaky) yield o / l
              f" | ${x.fold("-")(r => f"$r%.2f")}%11s"
            }.mkString
        out.println(
          f"${k.op}%-9s ${k.dataset}%-7s ${k.gc}%-8s ${k.memoryMb + "m"}%5s ${k.reduceTasks}%3d " +
            f"${byPoint(k).head.dmr}%6.3f" + variants
              .map(v => " | " + cells(of(v)))
              .mkString + ratios
        )
    }
    if (variants.contains(LeakySuite.Stock)) {
      out.println(
        "smallest memory with median reduce time within 5% of stock's best on the same curve:"
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
            f"  ${c.op}%-9s ${c.dataset}%-7s ${c.gc}%-8s R=${c.reduceTasks}%-3d stock best $best%8s: " +
              variants
                .filter(v => summaries.exists(s => s.key.curve == c && s.variant == v))
                .map(v => s"$v ${smallest(v)}")
                .mkString(", ")
          )
        }
    }
    val mismatches = summaries.map(_.mismatches).sum
    if (mismatches > 0)
      out.println(
        s"WARNING: $mismatches run(s) produced output different from the point's first run (any variant)"
      )
  }

  private def cells(s: Option[PointSummary]): String = s match {
    case None                               => f"${"-"}%-17s"
    case Some(p) if p.reduceSeconds.isEmpty => f"${"FAILED"}%-17s"
    case Some(p)                            =>
      val failed = if (p.failures > 0) s"${p.failures}F" else ""
      f"${p.reduceSeconds.get}%6.2f$failed%-2s ${p.gcShare.get * 100}%3.0f%% ${p.peakMemoryBytes.get / 1e6}%4.0f"
  }
}
