package dev.levee.bench.spark.leaky

import java.awt.{BasicStroke, Color}
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import org.knowm.xchart.{AnnotationText, XYChart, XYSeries}
import org.knowm.xchart.style.Styler.LegendLayout
import org.knowm.xchart.style.markers.SeriesMarkers

import dev.levee.bench.report.Charts
import dev.levee.bench.results.Measurement

/**
 * The leaky suite's figures, drawn from its results file and modelled on the paper's own (reduce-stage time against
 * DMR, one line per system, failures marked):
 *  - `leaky-dmr-sweep-<op>.png`: median reduce-stage seconds against DMR, one line per variant and executor heap;
 *    a failed point (OutOfMemoryError, lost executors, killed at the job timeout) is a mark of its own curve's at the
 *    time it failed;
 *  - `leaky-memory-ladder-<op>.png`: median reduce-stage seconds against executor memory on the curve with the most
 *    memories, with the line 5% above stock's best: the smallest memory under it is the memory figure; the
 *    variants that failed at a memory are named there;
 *  - `leaky-gc-share-<heap>m.png` and `leaky-gc-share-ladder.png`: the median GC share of reduce-task time against
 *    DMR at the sweep's smallest heap and against executor memory on the ladder, with the 10% goal.
 *
 * Each figure draws the points of one git revision (by default the newest that measured stock and leaky and can draw
 * it), and no ablation (runs with `--leaky-conf`): figures from different code are never mixed on one chart.
 */
object LeakyFigures {

  /** The median of one point's runs for one variant. */
  final case class Point(
      variant: String,
      op: String,
      dataset: String,
      gc: String,
      memoryMb: Int,
      reduceTasks: Int,
      records: Long,
      inputBytes: Long,
      dmr: Double,
      runs: Int,
      failed: Boolean,
      reduceSeconds: Double,
      gcShare: Option[Double]
  )

  private val GcGoal = 0.10

  /** Reduce-task counts a curve needs to be drawn against DMR: two points are a slope, not a sweep. */
  private val MinSweepPoints = 3

  private val Colors = Map(
    LeakySuite.Stock -> new Color(200, 60, 50),
    LeakySuite.Leaky -> new Color(40, 100, 200),
    LeakySuite.DataFrame -> new Color(40, 150, 70),
    LeakySuite.DataFrameOffHeap -> new Color(150, 90, 180)
  )

  private def isPoint(m: Measurement): Boolean =
    m.suite() == "leaky" && m.params().get("kind") == "point" && !m
      .params()
      .containsKey("leaky_conf")

  /** Medians per point and variant of the runs of `revision` (a prefix is enough). */
  def points(ms: Seq[Measurement], revision: String): Seq[Point] =
    ms.filter(m => isPoint(m) && m.gitRevision().startsWith(revision))
      .groupBy { m =>
        val p = m.params()
        (
          m.variant(),
          p.get("op").toString,
          p.get("dataset").toString,
          p.get("gc").toString,
          num(p.get("executor_memory_mb")).toInt,
          num(p.get("reduce_tasks")).toInt,
          num(p.get("records")).toLong,
          num(p.get("input_bytes")).toLong
        )
      }
      .toSeq
      .map { case ((variant, op, dataset, gc, memoryMb, r, records, inputBytes), runs) =>
        val ok = runs.filter(_.metrics().get("failed") == 0.0)
        val failed = ok.isEmpty
        val timed = if (failed) runs else ok
        Point(
          variant,
          op,
          dataset,
          gc,
          memoryMb,
          r,
          records,
          inputBytes,
          num(runs.head.params().get("dmr")),
          runs.size,
          failed,
          SweepResults.median(timed.map(_.metrics().get("reduce_stage_seconds").doubleValue)).get,
          if (failed) None
          else SweepResults.median(ok.map(_.metrics().get("reduce_gc_share").doubleValue))
        )
      }
      .sortBy(p => (p.op, p.variant, p.memoryMb, p.records, p.dmr))

  private def num(v: Any): Double = v match {
    case n: Number => n.doubleValue
    case s: String => s.toDouble
    case other     => throw new IllegalArgumentException(s"not a number: $other")
  }

  /**
   * The points of the one run (command) of `revision` that measured the most executor memories: a ladder's points
   * must come from one session, or the 5% line compares times taken under different machine loads.
   */
  def ladderPoints(ms: Seq[Measurement], revision: String): Seq[Point] = {
    val at = ms.filter(m => isPoint(m) && m.gitRevision().startsWith(revision))
    if (at.isEmpty) Seq.empty
    else {
      val command = at
        .groupBy(_.command())
        .maxBy(_._2.map(_.params().get("executor_memory_mb")).distinct.size)
        ._1
      points(at.filter(_.command() == command), revision)
    }
  }

  /**
   * The figures, each a function of one revision's points (`sweep`) and of that revision's longest ladder run (`ladder`)
   * that draws nothing (None) when those points cannot make it.
   */
  private final case class Family(draw: (Seq[Point], Seq[Point], String, Path) => Seq[Path])

  private def paperSetting(ps: Seq[Point]) =
    ps.filter(p => p.gc == "parallel" && p.dataset == "uniform")

  private val Families = Seq(
    Family { (points, _, stamp, dir) =>
      val paper = paperSetting(points)
      paper
        .map(_.op)
        .distinct
        .sorted
        .flatMap(op => dmrSweep(paper.filter(_.op == op), op, stamp, dir))
    },
    Family { (points, ladder, stamp, dir) =>
      val paper = paperSetting(ladder)
      paperSetting(points)
        .map(_.op)
        .distinct
        .sorted
        .flatMap(op => memoryLadder(paper.filter(_.op == op), op, stamp, dir))
    },
    Family((points, _, stamp, dir) => gcShareAtSmallHeap(paperSetting(points), stamp, dir).toSeq),
    Family((_, ladder, stamp, dir) => gcShareLadder(paperSetting(ladder), stamp, dir).toSeq)
  )

  /**
   * Reduce time against DMR. A line joins the points of one variant, heap and input size whose reduce-task count
   * varies (the paper's x axis); heaps measured at one reduce-task count only (a memory ladder) are left out.
   */
  private def dmrSweep(
      points: Seq[Point],
      op: String,
      stamp: String,
      dir: Path
  ): Option[Path] = {
    val stockMeasured =
      points.filter(_.variant == LeakySuite.Stock).map(p => (p.memoryMb, p.records)).toSet
    val curves = points
      .groupBy(p => (p.variant, p.memoryMb, p.records))
      .filter { case ((_, m, r), ps) =>
        ps.map(_.reduceTasks).distinct.size >= MinSweepPoints && stockMeasured((m, r))
      }
    // A sweep without stock's own curve beside it (a leaky-only run at one heap) is not this figure.
    if (!curves.keys.exists(_._1 == LeakySuite.Stock)) return None
    val chart = xyChart(
      s"$op: reduce stage time against DMR (uniform keys, ParallelGC, local-cluster, medians)",
      "DMR = input bytes / reduce tasks / executor heap (log scale); y: reduce stage seconds",
      "seconds, log scale (a FAILED point: when it failed)"
    )
    logX(chart)
    // Failed points sit at the time they failed, up to the job timeout: a log scale keeps the finished ones apart.
    chart.getStyler.setYAxisLogarithmic(true)
    chart.getStyler.setYAxisLogarithmicDecadeOnly(false)
    val heaps = curves.keys.map(_._2).toSeq.distinct.sorted
    val inputs = curves.keys.map(_._3).toSeq.distinct.sorted
    curves.toSeq.sortBy { case ((v, m, r), _) => (variantOrder(v), m, r) }.foreach {
      case ((v, m, records), ps) =>
        val sorted = ps.sortBy(_.dmr)
        val input = f"${sorted.head.inputBytes / 1e6}%.0f MB input"
        val label = s"$v, ${m} MB heap, $input"
        // Colour: the variant; line: the heap; marker: the input size; failure mark: heap and input. No two curves,
        // and no two curves' failures, look alike.
        val dashed = heaps.indexOf(m) % 2 == 1
        val shape = inputs.indexOf(records)
        line(chart, label, sorted, v, dashed, shape, heaps.indexOf(m) * inputs.size + shape)
    }
    Some(save(chart, dir, s"leaky-dmr-sweep-$op.png", stamp))
  }

  /**
   * Reduce time against executor memory on the curve (dataset, R, input) with the most memories. The memories are the
   * ladder's steps, evenly spaced and each labelled (they are not evenly spaced in MB); a memory where a variant failed
   * names it above the curves instead of a mark at the time it failed, so two failures at one memory never overlap.
   */
  private def memoryLadder(
      points: Seq[Point],
      op: String,
      stamp: String,
      dir: Path
  ): Option[Path] = {
    if (points.isEmpty) return None
    val byCurve = points.groupBy(p => (p.reduceTasks, p.records))
    val (curve, ladder) = byCurve.maxBy { case (_, ps) => ps.map(_.memoryMb).distinct.size }
    val memories = ladder.map(_.memoryMb).distinct.sorted
    if (memories.size < 3) return None
    val stockBest =
      ladder.filter(p => p.variant == LeakySuite.Stock && !p.failed).map(_.reduceSeconds)
    val line = stockBest.minOption.map(_ * (1 + SweepResults.Tolerance))
    val runs = ladder.map(_.runs).distinct.sorted
    val chart = xyChart(
      s"$op: memory ladder, R=${curve._1}, ${ladder.head.inputBytes / 1000000} MB input (medians of " +
        s"${runs.mkString("/")} runs)",
      "executor memory, MB (the ladder's steps)",
      "reduce stage seconds"
    )
    val step: Int => Double = m => memories.indexOf(m).toDouble
    chart.getStyler.setxAxisTickLabelsFormattingFunction(x =>
      memories
        .lift(math.round(x).toInt)
        .filter(_ => math.abs(x - math.round(x)) < 1e-9)
        .fold("")(_.toString)
    )
    val finished = ladder.filterNot(_.failed)
    val top = (finished.map(_.reduceSeconds) ++ line).maxOption.getOrElse(1.0)
    chart.getStyler.setYAxisMin(0.0)
    chart.getStyler.setYAxisMax(top * 1.3)
    // XChart labels ticks through the formatter at the data's x values only when they are evenly spaced (else it
    // searches for round steps, and never ends when the formatter leaves them blank): this series is at every step,
    // and added first: XChart checks the spacing in the order the series give their x values.
    val steps = memories.indices.map(_.toDouble).toArray
    val across = chart.addSeries(
      line.fold("every step")(y => f"stock's best + 5%% ($y%.2f s)"),
      steps,
      steps.map(_ => line.getOrElse(0.0))
    )
    across.setMarker(SeriesMarkers.NONE)
    across.setLineColor(if (line.isDefined) Color.DARK_GRAY else new Color(0, 0, 0, 0))
    across.setLineStyle(dash)
    across.setShowInLegend(line.isDefined)
    ladder.groupBy(_.variant).toSeq.sortBy(v => variantOrder(v._1)).foreach { case (v, ps) =>
      val ok = ps.filterNot(_.failed).sortBy(_.memoryMb)
      val from = line.fold("")(y =>
        ok.find(_.reduceSeconds <= y)
          .fold(", never within 5% of stock's best")(p =>
            s", within 5% of stock's best from ${p.memoryMb} MB"
          )
      )
      if (ok.nonEmpty) {
        val s = chart.addSeries(
          s"$v$from",
          ok.map(p => step(p.memoryMb)).toArray,
          ok.map(_.reduceSeconds).toArray
        )
        style(s, v, dashed = false)
        s.setMarker(Shapes(variantOrder(v) % Shapes.size))
      }
    }
    chart.getStyler.setAnnotationTextFontColor(Charts.FAILED)
    chart.getStyler.setAnnotationTextFont(
      new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 13)
    )
    ladder.filter(_.failed).groupBy(_.memoryMb).foreach { case (m, ps) =>
      val who = ps.sortBy(p => variantOrder(p.variant)).map(_.variant).mkString(", ")
      chart.addAnnotation(new AnnotationText(s"FAILED: $who", step(m), top * 1.15, false))
    }
    Some(save(chart, dir, s"leaky-memory-ladder-$op.png", stamp))
  }

  /**
   * GC share of reduce task time against DMR at the smallest heap swept over several reduce-task counts, failed points
   * left out (they have no share to show): where the goal is set.
   */
  private def gcShareAtSmallHeap(points: Seq[Point], stamp: String, dir: Path): Option[Path] = {
    val shown = points.filter(_.gcShare.isDefined)
    val swept = shown
      .groupBy(p => (p.memoryMb, p.records))
      .filter(_._2.map(_.reduceTasks).distinct.size >= MinSweepPoints)
      .keys
      .map(_._1)
    swept.minOption.map { heap =>
      val ps = shown.filter(p =>
        p.memoryMb == heap && points.exists(q =>
          q.variant == LeakySuite.Stock && q.records == p.records
        )
      )
      val chart = xyChart(
        s"GC share of reduce task time against DMR at a $heap MB heap (uniform keys, ParallelGC, medians)",
        "DMR (log scale)",
        "GC time / reduce task time, % (failed points have none)"
      )
      logX(chart)
      gcLines(chart, ps, _.dmr)
      save(chart, dir, s"leaky-gc-share-${heap}m.png", stamp)
    }
  }

  /** GC share of reduce task time against executor memory on the ladder's longest curve, failed points left out. */
  private def gcShareLadder(ladderPoints: Seq[Point], stamp: String, dir: Path): Option[Path] = {
    val byCurve = ladderPoints.filter(_.gcShare.isDefined).groupBy(p => (p.reduceTasks, p.records))
    if (byCurve.isEmpty) return None
    val (curve, ps) = byCurve.maxBy { case (_, qs) => qs.map(_.memoryMb).distinct.size }
    if (ps.map(_.memoryMb).distinct.size < 3) return None
    val chart = xyChart(
      s"GC share of reduce time vs executor memory (R=${curve._1}, ${ps.head.inputBytes / 1000000} MB input, medians)",
      "executor memory, MB (log scale)",
      "GC time / reduce task time, % (failed points have none)"
    )
    logX(chart)
    gcLines(chart, ps, _.memoryMb.toDouble)
    Some(save(chart, dir, "leaky-gc-share-ladder.png", stamp))
  }

  private def gcLines(chart: XYChart, ps: Seq[Point], x: Point => Double): Unit = {
    chart.getStyler.setYAxisMin(0.0)
    chart.getStyler.setYAxisMax(100.0)
    val ops = ps.map(_.op).distinct.sorted
    ps.groupBy(p => (p.variant, p.op))
      .toSeq
      .sortBy { case ((v, op), _) => (variantOrder(v), op) }
      .foreach { case ((v, op), qs) =>
        // One share per x: where two points meet (two inputs at one DMR), their median.
        val byX = qs.groupBy(x).toSeq.sortBy(_._1)
        val s = chart.addSeries(
          s"$v $op",
          byX.map(_._1).toArray,
          byX.map { case (_, rs) => SweepResults.median(rs.flatMap(_.gcShare)).get * 100 }.toArray
        )
        style(s, v, dashed = ops.indexOf(op) % 2 == 1)
      }
    val xs = ps.map(x)
    val goal =
      chart.addSeries("goal: 10%", Array(xs.min, xs.max), Array(GcGoal * 100, GcGoal * 100))
    goal.setMarker(SeriesMarkers.NONE)
    goal.setLineColor(Color.DARK_GRAY)
    goal.setLineStyle(dash)
  }

  /** Markers for finished points by shape index, and marks for failures, none of them a finished point's shape. */
  private val Shapes = Seq(
    SeriesMarkers.CIRCLE,
    SeriesMarkers.SQUARE,
    SeriesMarkers.TRIANGLE_UP,
    SeriesMarkers.DIAMOND
  )
  private val FailedShapes =
    Seq(
      SeriesMarkers.CROSS,
      SeriesMarkers.PLUS,
      SeriesMarkers.TRIANGLE_DOWN,
      SeriesMarkers.TRAPEZOID
    )

  /**
   * One curve (x = the points' `dmr`) with its failed points in the curve's colour and a failure mark of its own, named
   * in the legend with where they failed.
   */
  private def line(
      chart: XYChart,
      label: String,
      ps: Seq[Point],
      variant: String,
      dashed: Boolean,
      shape: Int,
      failedShape: Int
  ): Unit = {
    val ok = ps.filterNot(_.failed)
    if (ok.nonEmpty) {
      val s = chart.addSeries(label, ok.map(_.dmr).toArray, ok.map(_.reduceSeconds).toArray)
      style(s, variant, dashed)
      s.setMarker(Shapes(shape % Shapes.size))
    }
    val failed = ps.filter(_.failed)
    if (failed.nonEmpty) {
      val f = chart.addSeries(
        s"$label: FAILED at ${failed.map(p => f"DMR ${p.dmr}%.2f").mkString(", ")}",
        failed.map(_.dmr).toArray,
        failed.map(_.reduceSeconds).toArray
      )
      f.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter)
      f.setMarker(FailedShapes(failedShape % FailedShapes.size))
      f.setMarkerColor(Colors.getOrElse(variant, Color.BLACK))
    }
  }

  private def style(s: XYSeries, variant: String, dashed: Boolean): Unit = {
    val c = Colors.getOrElse(variant, Color.BLACK)
    s.setLineColor(c)
    s.setMarkerColor(c)
    s.setMarker(if (dashed) SeriesMarkers.DIAMOND else SeriesMarkers.CIRCLE)
    if (dashed) s.setLineStyle(dash)
  }

  private def dash =
    new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f, Array(8f, 6f), 0f)

  private def variantOrder(v: String): Int = LeakySuite.Variants.indexOf(v) match {
    case -1 => 99
    case i  => i
  }

  /** The report's house style (bench-core's Charts), with the legend in one column: its labels are long. */
  private def xyChart(title: String, x: String, y: String): XYChart = {
    val chart = Charts.lines(title, x, y)
    val st = chart.getStyler
    st.setLegendLayout(LegendLayout.Vertical)
    st.setXAxisDecimalPattern("0.###")
    st.setYAxisDecimalPattern("0.#")
    chart
  }

  /** A log x axis labelled between decades too (DMRs and memories span one or two decades). */
  private def logX(chart: XYChart): Unit = {
    chart.getStyler.setXAxisLogarithmic(true)
    chart.getStyler.setXAxisLogarithmicDecadeOnly(false)
  }

  private def save(chart: XYChart, dir: Path, name: String, stamp: String): Path = {
    val file = dir.resolve(name)
    Charts.write(Charts.stamped(Charts.image(chart), stamp), file)
    file
  }

  /**
   * Reads `results/leaky.jsonl` and writes the figures to `results/figures`: each from `revision` if one is given,
   * otherwise each from the newest revision that measured stock and leaky and whose points can draw it (a memory ladder
   * and a DMR sweep are different runs; the strip under each figure names its revision). No figure mixes revisions.
   */
  def writeFromResults(
      store: dev.levee.bench.results.ResultsStore,
      revision: Option[String]
  ): Seq[Drawn] = {
    val file = store.fileFor("leaky")
    if (!Files.exists(file)) throw new IllegalArgumentException(s"no leaky results at $file")
    val ms = store.read(file).asScala.toSeq
    val candidates = revision.map(Seq(_)).getOrElse(revisionsNewestFirst(ms))
    if (candidates.isEmpty)
      throw new IllegalArgumentException(s"no revision of $file measured both stock and leaky")
    // Each revision's points, ladder and strip, computed once however many figures try it.
    final case class Drawable(points: Seq[Point], ladder: Seq[Point], stamp: String)
    val byRevision = candidates.map { rev =>
      rev -> Drawable(
        points(ms, rev),
        ladderPoints(ms, rev),
        Charts.provenance(ms.filter(m => isPoint(m) && m.gitRevision().startsWith(rev)).asJava)
      )
    }
    if (byRevision.forall(_._2.points.isEmpty))
      throw new IllegalArgumentException(s"no leaky points of revision ${candidates.head} in $file")
    val dir = store.dir().resolve("figures")
    System.setProperty("java.awt.headless", "true")
    Files.createDirectories(dir)
    Families.flatMap { family =>
      byRevision.iterator
        .map { case (rev, d) => family.draw(d.points, d.ladder, d.stamp, dir).map(Drawn(_, rev)) }
        .find(_.nonEmpty)
        .getOrElse(Seq.empty)
    }
  }

  /** A figure written, and the revision whose points it draws. */
  final case class Drawn(file: Path, revision: String)

  /** The revisions that measured both stock and leaky points, newest first. */
  def revisionsNewestFirst(ms: Seq[Measurement]): Seq[String] =
    ms.filter(isPoint).reverse.map(_.gitRevision()).distinct.filter { rev =>
      val variants = ms.filter(m => isPoint(m) && m.gitRevision() == rev).map(_.variant()).toSet
      variants(LeakySuite.Stock) && variants(LeakySuite.Leaky)
    }
}
