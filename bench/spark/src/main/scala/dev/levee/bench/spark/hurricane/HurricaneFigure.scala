package dev.levee.bench.spark.hurricane

import java.awt.{BasicStroke, Color}
import java.nio.file.Path

import scala.jdk.CollectionConverters._

import dev.levee.bench.SuiteContext
import dev.levee.bench.report.Charts
import dev.levee.bench.spark.hurricane.HurricaneBenchSuite.Point
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle
import org.knowm.xchart.style.markers.SeriesMarkers

/** The thesis's Fig. 4.11 for this machine: slowdown against s per arm, one panel per regime, with both bounds. */
object HurricaneFigure {
  private[hurricane] val ArmColours = Map(
    "stock" -> Charts.STOCK,
    "dynamic" -> Charts.PLUGIN,
    "speculation" -> new Color(0x94, 0x67, 0xbd),
    "static" -> new Color(0x17, 0xbe, 0xcf),
    "seeded" -> new Color(0xbc, 0xbd, 0x22),
    "leaky" -> new Color(0x8c, 0x56, 0x4b),
    "unweighed" -> new Color(0xe3, 0x77, 0xc2)
  )

  private val ArmStrokes: Map[String, BasicStroke] = Map(
    "speculation" -> new BasicStroke(
      2.5f,
      BasicStroke.CAP_ROUND,
      BasicStroke.JOIN_ROUND,
      10f,
      Array(1f, 5f),
      0f
    ),
    "static" -> new BasicStroke(
      2.5f,
      BasicStroke.CAP_ROUND,
      BasicStroke.JOIN_ROUND,
      10f,
      Array(1f, 5f),
      0f
    )
  )

  def write(context: SuiteContext, points: Seq[Point]): Option[Path] = {
    // The figure's two regimes at their default sizes; other sizes and shapes are in the tables only.
    val rows = HurricaneReport
      .rows(points)
      .filter(r => HurricaneBenchSuite.DefaultRecords.contains(r.regime))
    if (rows.isEmpty) return None
    val panels = rows.groupBy(_.regime).toSeq.sortBy(_._1).reverse.map { case (regime, rs) =>
      val slots = points.find(_.regime == regime).map(_.slots).getOrElse(0)
      val chart = Charts.lines(
        s"$regime, $slots slots",
        "Zipf exponent s over 64 regions",
        "reduce-stage time / own uniform time (medians)"
      )
      val skews = rs.map(_.s).distinct.sorted
      def add(
          name: String,
          ys: Seq[Double],
          colour: Color,
          dashed: Boolean,
          xs: Seq[Double] = skews
      ): Unit = {
        val series = chart.addSeries(name, xs.map(Double.box).asJava, ys.map(Double.box).asJava)
        series.setLineColor(colour)
        series.setMarkerColor(colour)
        series.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line)
        if (dashed) {
          series.setMarker(SeriesMarkers.NONE)
          series.setLineStyle(
            new BasicStroke(
              2f,
              BasicStroke.CAP_BUTT,
              BasicStroke.JOIN_MITER,
              10f,
              Array(8f, 6f),
              0f
            )
          )
        }
      }
      val anyRow = rs.groupBy(_.s).view.mapValues(_.head).toMap
      add(
        "tight bound max(1, P·f)",
        skews.map(s => anyRow(s).tight),
        Charts.BOUND,
        dashed = true
      )
      add("Amdahl P·f + 1 − f", skews.map(s => anyRow(s).amdahl), Charts.PAPER, dashed = true)
      rs.groupBy(_.arm).toSeq.sortBy(_._1).foreach { case (arm, ar) =>
        val byS = ar.map(r => r.s -> r).toMap
        // An arm's line joins the skews it measured; a failed point is a gap, never a zero. (A skew it never
        // measured is left out rather than made a gap, which broke lines into stray markers.)
        val measured = skews.filter(byS.contains)
        val ys = measured.map(s =>
          Some(byS(s)).filter(r => r.failed < r.runs).map(_.slowdown).getOrElse(Double.NaN)
        )
        add(arm, ys, ArmColours.getOrElse(arm, Color.BLACK), dashed = false, xs = measured)
        // Arms that often lie on another's line (speculation on stock, static on seeded) are dotted over it.
        ArmStrokes.get(arm).foreach(stroke => chart.getSeriesMap.get(arm).setLineStyle(stroke))
      }
      chart.getStyler.setYAxisMin(0.0)
      Charts.image(chart)
    }
    val figure = Charts.panels(
      "ClickLog under skew: each arm's reduce-stage time over its own uniform run (thesis Fig. 4.11's measure)",
      panels.asJava,
      (List(
        "Real CPU: local-cluster[2,1,2048], the machine's 2 cores, 24M clicks, 64 map tasks, 4 MB chunks (the default; " +
          "chunks are Hurricane's: stock and speculation do not have them). " +
          "Emulated compute: local-cluster[4,4,1536], 2M clicks, 256 map tasks, 8 KB chunks, 48 µs of reduce-side cost " +
          "per click as a park, so 16 slots behave as 16 workers (tests scheduling and cloning, not CPU).",
        "Arms: stock; speculation (stock with spark.speculation on); dynamic (Hurricane's default: clones at run " +
          "time by Eq. 4.1); static (clones seeded at once for partitions over 5x the median, threshold 1 MB); " +
          "seeded (both); leaky (dynamic over the leaky buffer's manager). Each point is from the newest run that " +
          "measured it, over the same run's uniform time.",
        "Each point is the median of the run's repetitions. f = the hottest region's share of the clicks; the bounds " +
          "are what a system that cannot split a partition " +
          "can at best reach."
      ) ++ runDates(points.filter(p => HurricaneBenchSuite.DefaultRecords.contains(p.regime)))).asJava
    )
    Some(save(context, figure, "hurricane-clicklog-slowdown.png", points))
  }

  /**
   * When the points drawn were measured, per regime and arm, where they come from runs of more than one day: a
   * reader must see that an arm's points predate another's (the real-CPU warm-up changed on 2026-11-30).
   */
  private def runDates(points: Seq[Point]): Seq[String] = {
    val dates = points.filter(_.run.nonEmpty).groupBy(p => (p.regime, p.arm)).map { case (k, ps) =>
      k -> ps.map(_.run.take(10)).distinct.sorted.mkString(" and ")
    }
    if (dates.values.toSeq.distinct.size <= 1) Nil
    else
      Seq(
        "Measured: " + dates
          .groupBy(_._1._1)
          .toSeq
          .sortBy(_._1)
          .reverse
          .map { case (regime, byArm) =>
            s"$regime: " + byArm.toSeq
              .groupBy(_._2)
              .toSeq
              .sortBy(_._1)
              .map { case (d, arms) =>
                s"${arms.map(_._1._2).sorted.mkString(", ")} on $d"
              }
              .mkString("; ")
          }
          .mkString(". ") + "."
      )
  }

  /**
   * A figure of this suite, stamped, in the results' figures directory: points read back from the results file
   * carry their runs' revisions and dates; a run in progress stamps its own revision and today.
   */
  def save(
      context: SuiteContext,
      figure: java.awt.image.BufferedImage,
      name: String,
      points: Seq[Point]
  ): Path = {
    val file = context.store().dir().resolve("figures").resolve(name)
    java.nio.file.Files.createDirectories(file.getParent)
    val stamp =
      if (points.nonEmpty && points.forall(p => p.run.nonEmpty && p.revision.nonEmpty))
        Charts.provenance(
          points.map(_.revision).asJava,
          points.map(_.run).asJava
        )
      else Charts.provenance(context.gitRevision(), java.time.LocalDate.now().toString)
    Charts.write(Charts.stamped(figure, stamp), file)
    file
  }
}
