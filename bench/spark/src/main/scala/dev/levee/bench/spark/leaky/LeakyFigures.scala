package dev.levee.bench.spark.leaky

import java.awt.{BasicStroke, Color}
import java.nio.file.{Files, Path}

import scala.jdk.CollectionConverters._

import org.knowm.xchart.{XYChart, XYSeries}
import org.knowm.xchart.style.Styler.LegendLayout
import org.knowm.xchart.style.markers.SeriesMarkers

import dev.levee.bench.report.Charts
import dev.levee.bench.results.Measurement

/**
 * The leaky suite's figures, drawn from its results file and modelled on the paper's own (reduce-stage time against
 * DMR, one line per system, failures marked):
 *  - `leaky-dmr-sweep-<op>.png`: median reduce-stage seconds against DMR, one line per variant and executor heap;
 *    a failed point (OutOfMemoryError, lost executors, killed at the job timeout) is a cross at the time it failed;
 *  - `leaky-memory-ladder-<op>.png`: median reduce-stage seconds against executor memory on the curve with the most
 *    memories, with the line 5% above stock's best: the smallest memory under it is the memory figure;
 *  - `leaky-gc-share-<heap>m.png` and `leaky-gc-share-ladder.png`: the median GC share of reduce-task time against
 *    DMR at the sweep's smallest heap and against executor memory on the ladder, with the 10% goal.
 *
 * Only the points of one git revision are drawn (by default the newest revision that measured stock and leaky),
 * and no ablation (runs with `--leaky-conf`): figures from different code are never mixed on one chart.
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

  private val Colors = Map(
    LeakySuite.Stock -> new Color(200, 60, 50),
    LeakySuite.Leaky -> new Color(40, 100, 200),
    LeakySuite.DataFrame -> new Color(40, 150, 70),
    LeakySuite.DataFrameOffHeap -> new Color(150, 90, 180)
  )

  /** The revision drawn when none is asked for: the newest that measured both stock and leaky points. */
  def defaultRevision(ms: Seq[Measurement]): Option[String] =
    ms.filter(isPoint).reverse.map(_.gitRevision()).distinct.find { rev =>
      val variants = ms.filter(m => isPoint(m) && m.gitRevision() == rev).map(_.variant()).toSet
      variants(LeakySuite.Stock) && variants(LeakySuite.Leaky)
    }

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
   * Writes every figure the points allow into `dir` (the ladder from `ladder`), each with `stamp` (where its points come
   * from, `Charts.provenance`) under it; returns the files written.
   */
  def write(points: Seq[Point], ladder: Seq[Point], stamp: String, dir: Path): Seq[Path] = {
    System.setProperty("java.awt.headless", "true")
    Files.createDirectories(dir)
    def paperSetting(ps: Seq[Point]) = ps.filter(p => p.gc == "parallel" && p.dataset == "uniform")
    val paper = paperSetting(points)
    val ops = paper.map(_.op).distinct.sorted
    val sweeps = ops.flatMap(op => dmrSweep(paper.filter(_.op == op), op, stamp, dir))
    val ladders =
      ops.flatMap(op => memoryLadder(paperSetting(ladder).filter(_.op == op), op, stamp, dir))
    sweeps ++ ladders ++ gcShare(paper, paperSetting(ladder), stamp, dir)
  }

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
        ps.map(_.reduceTasks).distinct.size > 1 && stockMeasured((m, r))
      }
    if (curves.isEmpty) return None
    val chart = xyChart(
      s"$op: reduce stage time against DMR (uniform keys, ParallelGC, local-cluster, medians)",
      "DMR = input bytes / reduce tasks / executor heap (log scale); y: reduce stage seconds",
      "seconds, log scale (x, +: FAILED, when it failed)"
    )
    chart.getStyler.setXAxisLogarithmic(true)
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
        // Colour: the variant; line: the heap; marker: the input size. No two curves look alike.
        val dashed = heaps.indexOf(m) % 2 == 1
        line(chart, label, sorted, v, dashed, inputs.indexOf(records))
    }
    Some(save(chart, dir, s"leaky-dmr-sweep-$op.png", stamp))
  }

  /** Reduce time against executor memory on the curve (dataset, R, input) with the most memories. */
  private def memoryLadder(
      points: Seq[Point],
      op: String,
      stamp: String,
      dir: Path
  ): Option[Path] = {
    val byCurve = points.groupBy(p => (p.reduceTasks, p.records))
    val (curve, ladder) = byCurve.maxBy { case (_, ps) => ps.map(_.memoryMb).distinct.size }
    if (ladder.map(_.memoryMb).distinct.size < 3) return None
    val stockBest =
      ladder.filter(p => p.variant == LeakySuite.Stock && !p.failed).map(_.reduceSeconds)
    val smallest: Map[String, String] = ladder.groupBy(_.variant).map { case (v, ps) =>
      v -> (if (stockBest.isEmpty) "-"
            else
              ps.filter(p =>
                !p.failed && p.reduceSeconds <= stockBest.min * (1 + SweepResults.Tolerance)
              ).map(_.memoryMb)
                .sorted
                .headOption
                .fold("none")(_ + " MB"))
    }
    val runs = ladder.map(_.runs).distinct.sorted
    val memories = ladder.map(_.memoryMb).distinct.sorted
    val chart = xyChart(
      s"$op: memory ladder, R=${curve._1}, ${ladder.head.inputBytes / 1000000} MB input (medians of " +
        s"${runs.mkString("/")} runs)",
      s"executor memory, MB (log scale; measured at ${memories.mkString(", ")})",
      "seconds (x, +: FAILED, when it failed)"
    )
    chart.getStyler.setXAxisLogarithmic(true)
    chart.getStyler.setXAxisLogarithmicDecadeOnly(false)
    chart.getStyler.setYAxisMin(0.0)
    ladder.groupBy(_.variant).toSeq.sortBy(v => variantOrder(v._1)).foreach { case (v, ps) =>
      line(
        chart,
        s"$v: within 5% of stock's best from ${smallest(v)} up",
        ps.sortBy(_.memoryMb).map(p => p.copy(dmr = p.memoryMb.toDouble)),
        v,
        dashed = false,
        shape = variantOrder(v)
      )
    }
    if (stockBest.nonEmpty) {
      val memories = ladder.map(_.memoryMb.toDouble)
      val y = stockBest.min * (1 + SweepResults.Tolerance)
      val s = chart.addSeries(
        f"stock's best + 5%% ($y%.2f s)",
        Array(memories.min, memories.max),
        Array(y, y)
      )
      s.setMarker(SeriesMarkers.NONE)
      s.setLineColor(Color.DARK_GRAY)
      s.setLineStyle(dash)
    }
    Some(save(chart, dir, s"leaky-memory-ladder-$op.png", stamp))
  }

  /**
   * GC share of reduce task time, failed points left out (they have no share to show): against DMR at the smallest
   * heap of the sweep (where the goal is set), and against executor memory on the memory ladder.
   */
  private def gcShare(
      points: Seq[Point],
      ladderPoints: Seq[Point],
      stamp: String,
      dir: Path
  ): Seq[Path] = {
    val shown = points.filter(_.gcShare.isDefined)
    if (shown.isEmpty) return Seq.empty
    val swept = shown
      .groupBy(p => (p.memoryMb, p.records))
      .filter(_._2.map(_.reduceTasks).distinct.size > 1)
      .keys
      .map(_._1)
    val atSmallHeap = swept.minOption.map { heap =>
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
      chart.getStyler.setXAxisLogarithmic(true)
      gcLines(chart, ps, _.dmr)
      save(chart, dir, s"leaky-gc-share-${heap}m.png", stamp)
    }
    val ladder =
      if (ladderPoints.forall(_.gcShare.isEmpty)) None
      else {
        val byCurve =
          ladderPoints.filter(_.gcShare.isDefined).groupBy(p => (p.reduceTasks, p.records))
        val (curve, ps) = byCurve.maxBy { case (_, qs) => qs.map(_.memoryMb).distinct.size }
        if (ps.map(_.memoryMb).distinct.size < 3) None
        else {
          val chart = xyChart(
            s"GC share of reduce time vs executor memory (R=${curve._1}, ${ps.head.inputBytes / 1000000} MB input, medians)",
            "executor memory, MB (log scale)",
            "GC time / reduce task time, % (failed points have none)"
          )
          chart.getStyler.setXAxisLogarithmic(true)
          chart.getStyler.setXAxisLogarithmicDecadeOnly(false)
          gcLines(chart, ps, _.memoryMb.toDouble)
          Some(save(chart, dir, "leaky-gc-share-ladder.png", stamp))
        }
      }
    atSmallHeap.toSeq ++ ladder
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

  /** Markers for finished points by shape index, and the open mark of the same curve's failures. */
  private val Shapes = Seq(
    SeriesMarkers.CIRCLE,
    SeriesMarkers.SQUARE,
    SeriesMarkers.TRIANGLE_UP,
    SeriesMarkers.DIAMOND
  )
  private val FailedShapes =
    Seq(SeriesMarkers.CROSS, SeriesMarkers.PLUS, SeriesMarkers.TRIANGLE_DOWN, SeriesMarkers.OVAL)

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
      shape: Int
  ): Unit = {
    val ok = ps.filterNot(_.failed)
    if (ok.nonEmpty) {
      val s = chart.addSeries(label, ok.map(_.dmr).toArray, ok.map(_.reduceSeconds).toArray)
      style(s, variant, dashed)
      s.setMarker(Shapes(shape % Shapes.size))
    }
    val failed = ps.filter(_.failed)
    if (failed.nonEmpty) {
      val where = failed.map(p =>
        if (p.dmr == p.memoryMb.toDouble) s"${p.memoryMb} MB" else f"DMR ${p.dmr}%.2f"
      )
      val f = chart.addSeries(
        s"$label: FAILED at ${where.mkString(", ")}",
        failed.map(_.dmr).toArray,
        failed.map(_.reduceSeconds).toArray
      )
      f.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter)
      f.setMarker(FailedShapes(shape % FailedShapes.size))
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

  private def save(chart: XYChart, dir: Path, name: String, stamp: String): Path = {
    val file = dir.resolve(name)
    Charts.write(Charts.stamped(Charts.image(chart), stamp), file)
    file
  }

  /** Reads `results/leaky.jsonl` and writes the figures of `revision` (or the default one) to `results/figures`. */
  def writeFromResults(
      store: dev.levee.bench.results.ResultsStore,
      revision: Option[String]
  ): Seq[Path] = {
    val file = store.fileFor("leaky")
    if (!Files.exists(file)) throw new IllegalArgumentException(s"no leaky results at $file")
    val ms = store.read(file).asScala.toSeq
    val rev = revision
      .orElse(defaultRevision(ms))
      .getOrElse(
        throw new IllegalArgumentException(s"no revision of $file measured both stock and leaky")
      )
    val ps = points(ms, rev)
    if (ps.isEmpty) throw new IllegalArgumentException(s"no leaky points of revision $rev in $file")
    val stamp =
      Charts.provenance(ms.filter(m => isPoint(m) && m.gitRevision().startsWith(rev)).asJava)
    write(ps, ladderPoints(ms, rev), stamp, store.dir().resolve("figures"))
  }
}
