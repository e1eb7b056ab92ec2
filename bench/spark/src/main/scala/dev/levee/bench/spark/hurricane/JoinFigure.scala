package dev.levee.bench.spark.hurricane

import java.awt.Color
import java.nio.file.Path

import scala.jdk.CollectionConverters._

import dev.levee.bench.SuiteContext
import dev.levee.bench.report.Charts
import dev.levee.bench.spark.hurricane.HurricaneBenchSuite.Point

/** The skewed join: each arm's job time (median) at each Zipf exponent, one panel per regime. */
object JoinFigure {
  private val ArmColours = Map(
    "stock" -> Charts.STOCK,
    "hurricane" -> Charts.PLUGIN,
    "hurricane-join" -> new Color(0x9e, 0xc5, 0xe8),
    "hurricane-seeded" -> HurricaneFigure.ArmColours("seeded"),
    "hurricane-join-seeded" -> new Color(0xdb, 0xdb, 0x8d),
    "dataset-aqe" -> Charts.PAPER,
    "dataset-broadcast" -> Charts.BOUND
  )
  private val ArmOrder =
    Seq(
      "stock",
      "hurricane-join",
      "hurricane",
      "hurricane-join-seeded",
      "hurricane-seeded",
      "dataset-aqe",
      "dataset-broadcast"
    )

  def write(context: SuiteContext, points: Seq[Point]): Option[Path] = {
    val rows = JoinReport.rows(points)
    if (rows.isEmpty) return None
    val missing =
      rows.filter(r => r.failed == r.runs).map(r => s"${r.arm} at s = ${r.s} (${r.regime})")
    val panels = rows.groupBy(_.regime).toSeq.sortBy(_._1).reverse.map { case (regime, rs) =>
      val slots = points.find(_.regime == regime).map(_.slots).getOrElse(0)
      val chart = Charts.bars(
        s"$regime, $slots slots",
        "Zipf exponent s over 64 keys",
        "job time, s (median)",
        Charts.WIDTH,
        Charts.HEIGHT
      )
      val skews = rs.map(_.s).distinct.sorted
      val arms = ArmOrder
        .filter(a => rs.exists(_.arm == a)) ++ rs.map(_.arm).distinct.filterNot(ArmOrder.contains)
      arms.foreach { arm =>
        val byS = rs.filter(_.arm == arm).map(r => r.s -> r).toMap
        // A failed or missing point is a gap (named under the figure), never a zero.
        val ys = skews
          .map(s => byS.get(s).filter(r => r.failed < r.runs).map(_.seconds).getOrElse(Double.NaN))
        val series = chart.addSeries(
          arm,
          skews.map(s => if (s == s.floor) f"s = $s%.0f" else s"s = $s").asJava,
          Charts.gaps(ys.map(Double.box).asJava)
        )
        series.setFillColor(ArmColours.getOrElse(arm, Color.BLACK))
      }
      chart.getStyler.setDecimalPattern("#,##0.0")
      Charts.headroom(
        chart,
        rs.filter(r => r.failed < r.runs).map(_.seconds).maxOption.getOrElse(1.0)
      )
      Charts.image(chart)
    }
    val notes = List(
      "Probe relation: 64 keys, Zipf over their ranks (one key per reduce partition); build relation: " +
        "the same rows per key for every key; every joined pair consumed into one sum, equal in every arm. " +
        "stock: RDD join; hurricane-join: hurricaneJoin, the pairs consumed by the owner task; hurricane: " +
        "hurricaneJoinWithMerge, each worker consumes its own pairs; *-seeded: the same with static seeding's " +
        "threshold at 1 MB (clones for a partition over 5x the median when its bag opens); dataset-aqe: Dataset join with AQE's skew join " +
        "(thresholds lowered to this data); dataset-broadcast: a broadcast hash join, no shuffle of the probe side.",
      "Real CPU: local-cluster[2,1,2048]. Emulated compute: local-cluster[4,4,1536], work per joined pair as a park, " +
        "so 16 slots behave as 16 workers. Whole-job times, medians of the run's repetitions; each bar is " +
        "from the newest run that measured that arm at that s." +
        (if (missing.isEmpty) "" else " Failed or not run: " + missing.mkString(", ") + ".")
    )
    val figure = Charts.panels(
      "A skewed join: Hurricane against the Dataset path",
      panels.asJava,
      notes.asJava
    )
    Some(HurricaneFigure.save(context, figure, "hurricane-skewed-join.png", points))
  }
}
