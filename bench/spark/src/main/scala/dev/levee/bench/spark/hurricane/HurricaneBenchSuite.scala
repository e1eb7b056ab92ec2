package dev.levee.bench.spark.hurricane

import java.util

import scala.collection.mutable
import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import dev.levee.bench.{Suite, SuiteContext}
import dev.levee.bench.cli.Choices
import dev.levee.hurricane.HurricanePlugin
import dev.levee.it.spark.{SparkCluster, SparkTopology}
import org.apache.spark.shuffle.levee.{HurricaneShuffleManager, LeakyShuffleManager}

/**
 * Hurricane against stock Spark on the thesis's ClickLog (Fig. 4.11's measure: each arm's reduce-stage time under
 * skew s over its own time on uniform input), in two labelled regimes: real CPU with the machine's 2 slots, and
 * emulated compute with 16 slots (per-record cost as a park, so it tests scheduling, cloning and merging, not CPU).
 * Beside each slowdown: the bounds for a system that cannot split a partition, tight max(1, P·f) and Amdahl's
 * P·f + 1 − f as the thesis computes it, f being the hottest partition's share.
 */
final class HurricaneBenchSuite extends Suite {
  import HurricaneBenchSuite._

  override def name(): String = "hurricane"

  override def summary(): String =
    "Hurricane vs stock Spark: ClickLog slowdown under Zipf skew, real CPU (2 slots) and emulated compute (16 slots)"

  override def newOptions(): AnyRef = new HurricaneOptions

  override def run(context: SuiteContext): Unit =
    if (context.options(classOf[HurricaneOptions]).figures)
      report(context, HurricaneResults.newestPerPoint(context.store()))
    else report(context, runAll(context))

  private def report(context: SuiteContext, points: Seq[Point]): Unit = {
    val (joins, others) = points.partition(_.workload == "join")
    val (pairs, clicks) = others.partition(_.workload == PairsWorkload)
    if (pairs.nonEmpty) HurricaneReport.printSpills(context.out(), pairs)
    if (clicks.nonEmpty) {
      HurricaneReport.print(context.out(), clicks)
      HurricaneFigure
        .write(context, clicks)
        .foreach(f => context.err().println(s"hurricane: wrote $f"))
    }
    if (joins.nonEmpty) {
      JoinReport.print(context.out(), joins)
      JoinFigure.write(context, joins).foreach(f => context.err().println(s"hurricane: wrote $f"))
    }
  }

  private def runAll(context: SuiteContext): Seq[Point] = {
    val o = context.options(classOf[HurricaneOptions])
    val workload = Choices.oneOf("--workload", o.workload, List("clicklog", "join", "both").asJava)
    val clicks = if (workload == "join") Nil else runClickLog(context)
    clicks ++ (if (workload == "clicklog") Nil else runJoin(context))
  }

  private def runJoin(context: SuiteContext): Seq[Point] = {
    val o = context.options(classOf[HurricaneOptions])
    val arms = o.joinArms.split(",").map(_.trim).filter(_.nonEmpty).toSeq
    val reps = o.reps
    val rows = o.joinRowsPerKey
    val real = JoinBench.Regime(
      "join, real CPU",
      SparkTopology.LocalCluster(2, 1, 2048),
      2,
      exponents(o.joinSReal),
      o.joinRecords,
      64,
      rows,
      0L,
      o.chunkReal,
      4L << 20,
      4L << 20
    )
    val emulated = JoinBench.Regime(
      "join, emulated compute",
      SparkTopology.LocalCluster(4, 4, 1536),
      16,
      exponents(o.joinSEmulated),
      o.joinEmulatedRecords,
      256,
      rows,
      o.joinParkNs,
      o.chunkEmulated,
      256L << 10,
      256L << 10
    )
    val regimes =
      Choices.oneOf("--regime", o.regime, List("real", "emulated", "both").asJava) match {
        case "both" => Seq(real, emulated)
        case "real" => Seq(real)
        case _      => Seq(emulated)
      }
    regimes.flatMap(JoinBench.run(context, _, arms, reps))
  }

  private def runClickLog(context: SuiteContext): Seq[Point] = {
    val o = context.options(classOf[HurricaneOptions])
    val arms = o.arms.split(",").map(_.trim).filter(_.nonEmpty).toSeq
    arms.filterNot(Arms.contains).foreach { a =>
      throw new IllegalArgumentException(
        s"unknown arm '$a': allowed are ${Arms.keys.mkString(", ")}"
      )
    }
    val reps = o.reps
    val regimes =
      Choices.oneOf("--regime", o.regime, List("real", "emulated", "both").asJava) match {
        case "both" => Seq(real(o), emulated(o))
        case "real" => Seq(real(o))
        case _      => Seq(emulated(o))
      }
    val points = mutable.Buffer.empty[Point]
    for (regime <- regimes) points ++= runRegime(context, regime, arms, reps, regime.chunkBytes)
    points.toSeq
  }

  private def exponents(s: String): Seq[Double] =
    s.split(",").map(_.trim).filter(_.nonEmpty).map(_.toDouble).toSeq

  private def pairs(o: HurricaneOptions): Boolean =
    Choices.oneOf("--clicklog-shape", o.clicklogShape, List("bitset", "pairs").asJava) == "pairs"

  /** The pairs shape's IP bits, named in the regime when they are not the default. */
  private def ipBits(o: HurricaneOptions): Int = o.ipBits

  private def shapeName(o: HurricaneOptions): Option[String] =
    if (!pairs(o)) None
    else if (ipBits(o) == ClickLog.IpBits) Some("(region, IP) pairs")
    else Some(s"(region, IP) pairs of 2^${ipBits(o)} IPs")

  /**
   * The regime's name says what differs from the figure's regimes (the shape, a smaller executor), so the results
   * file keeps such runs apart from them.
   */
  private def real(o: HurricaneOptions): Regime = {
    val memoryMb = o.executorMb
    val name = regimeName(
      Seq(
        Some("real CPU"),
        shapeName(o),
        if (memoryMb != 1024) Some(s"$memoryMb MB executors") else None
      ).flatten.mkString(", "),
      o.records
    )
    Regime(
      name,
      SparkTopology.LocalCluster(2, 1, math.max(2048, memoryMb)),
      2,
      exponents(o.sReal),
      o.records,
      0L,
      64,
      o.chunkReal,
      pairs(o),
      ipBits(o),
      Map("spark.executor.memory" -> s"${memoryMb}m")
    )
  }

  private def emulated(o: HurricaneOptions): Regime =
    Regime(
      regimeName(
        ("emulated compute" +: shapeName(o).toSeq).mkString(", "),
        o.emulatedRecords
      ),
      SparkTopology.LocalCluster(4, 4, 1536),
      16,
      exponents(o.sEmulated),
      o.emulatedRecords,
      o.parkNs,
      256,
      o.chunkEmulated,
      pairs(o),
      ipBits(o)
    )

  /**
   * A chunk is a map-index range and one map task's block is never split, so a partition has at most as many chunks
   * as the shuffle has map tasks: the map side is cut finely (64 and 256 tasks) for the bag to hold enough chunks.
   * Chunks are scaled to the data so the hottest partition holds hundreds of them, as the thesis's 4 MB chunks of
   * gigabyte partitions did; the emulated regime's clicks carry far more work per byte, so its chunks are smaller.
   *
   * Every arm of one regime: arms that share a cluster's settings run in one cluster, alternating order per rep. */
  private def runRegime(
      context: SuiteContext,
      regime: Regime,
      arms: Seq[String],
      reps: Int,
      chunkBytes: Long
  ): Seq[Point] = {
    val out = mutable.Buffer.empty[Point]
    val answers = mutable.Map.empty[Double, Map[Int, Int]]
    for ((clusterName, clusterArms) <- arms.groupBy(a => Arms(a).cluster).toSeq.sortBy(_._1)) {
      val settings =
        Clusters(clusterName) ++ regime.settings +
          ("spark.levee.hurricane.chunk.targetBytes" -> chunkBytes.toString)
      context
        .err()
        .println(
          s"hurricane: ${regime.name}: cluster '$clusterName' for ${clusterArms.mkString(", ")}"
        )
      SparkCluster.using(regime.topology, settings, s"levee-bench-hurricane-$clusterName") {
        cluster =>
          val sc = cluster.sc
          val listener = new ReduceStageTimes
          sc.addSparkListener(listener)
          // Class loading, JIT and the executors' first connections are not skew: uniform rounds of every arm
          // until their times settle, unmeasured.
          val warmUp = WarmUp().run(clusterArms) { arm =>
            sc.setLocalProperty("spark.levee.hurricane.enabled", Arms(arm).hurricane.toString)
            listener.reset()
            ClickLog(0, regime.records, regime.maps, regime.parkNanos, regime.pairs, regime.ipBits)
              .run(sc)
            listener.reduceStage().seconds
          }
          context.err().println(s"hurricane: ${regime.name}: warm-up ${warmUp.describe}")
          // The exponents' order turns each rep too, so no exponent is always the first measured after a pause.
          for (rep <- 0 until reps; s <- rotated(regime.exponents, rep)) {
            val order = if (rep % 2 == 0) clusterArms else clusterArms.reverse
            for (arm <- order) {
              val log = ClickLog(
                s,
                regime.records,
                regime.maps,
                regime.parkNanos,
                regime.pairs,
                regime.ipBits
              )
              sc.setLocalProperty("spark.levee.hurricane.enabled", Arms(arm).hurricane.toString)
              val clonesBefore =
                HurricanePlugin.coordinator.map(_.metrics.clonesStarted.sum()).getOrElse(0L)
              listener.reset()
              val t0 = System.nanoTime()
              val base = Point(
                regime.name,
                regime.slots,
                arm,
                s,
                log.hottestShare,
                rep,
                ok = false,
                error = "",
                workload = if (regime.pairs) PairsWorkload else "clicklog",
                warmUpRounds = warmUp.rounds,
                warmUpSettled = warmUp.settled,
                run = regime.started
              )
              val point =
                try {
                  val answer = log.run(sc)
                  val jobSeconds = (System.nanoTime() - t0) / 1e9
                  val matches = answers.getOrElseUpdate(s, answer) == answer
                  val stage = listener.reduceStage()
                  val tasks = stage.taskSeconds.sorted
                  base.copy(
                    ok = matches,
                    error = if (matches) "" else "output differs from the first arm's",
                    jobSeconds = jobSeconds,
                    reduceSeconds = stage.seconds,
                    maxTaskSeconds = tasks.lastOption.getOrElse(0.0),
                    medianTaskSeconds = if (tasks.isEmpty) 0.0 else tasks(tasks.size / 2),
                    clones = HurricanePlugin.coordinator
                      .map(_.metrics.clonesStarted.sum())
                      .getOrElse(0L) - clonesBefore,
                    spilledBytes = listener.spilledBytes,
                    largestTaskSpilledBytes = listener.largestTaskSpilledBytes,
                    shuffleBytesRead = listener.shuffleBytesRead
                  )
                } catch {
                  case NonFatal(e) =>
                    base.copy(error = e.toString, jobSeconds = (System.nanoTime() - t0) / 1e9)
                }
              context
                .err()
                .println(
                  f"hurricane: ${regime.name} $arm s=$s rep $rep: reduce ${point.reduceSeconds}%.2f s, clones ${point.clones}${if (
                      point.ok
                    ) ""
                    else " FAILED: " + point.error}"
                )
              record(
                context,
                regime.name,
                regime.slots,
                regime.records,
                regime.parkNanos,
                chunkBytes,
                point
              )
              out += point
            }
          }
      }
    }
    out.toSeq
  }
}

object HurricaneBenchSuite {

  /** The workload of ClickLog's (region, IP) pairs shape on result lines. */
  val PairsWorkload = "clicklog-pairs"

  /** One result line per point; the join's and ClickLog's share the schema, told apart by `workload`. */
  def record(
      context: SuiteContext,
      regime: String,
      slots: Int,
      records: Long,
      parkNanos: Long,
      chunkBytes: Long,
      p: Point
  ): Unit = {
    val params = new util.LinkedHashMap[String, Object]()
    params.put("workload", p.workload)
    params.put("regime", regime)
    params.put("slots", Int.box(slots))
    params.put("s", Double.box(p.s))
    params.put("records", Long.box(records))
    params.put("park_ns", Long.box(parkNanos))
    params.put("chunk_bytes", Long.box(chunkBytes))
    params.put("ok", Boolean.box(p.ok))
    if (!p.ok) params.put("error", p.error)
    // Names the run a line belongs to, so the report never pools two runs of the same command and revision.
    if (p.run.nonEmpty) params.put("run_started", p.run)
    if (p.warmUpRounds > 0) {
      params.put("warmup_rounds", Int.box(p.warmUpRounds))
      params.put("warmup_settled", Boolean.box(p.warmUpSettled))
    }
    val metrics = new util.LinkedHashMap[String, java.lang.Double]()
    metrics.put("job_seconds", p.jobSeconds)
    metrics.put("reduce_seconds", p.reduceSeconds)
    metrics.put("max_task_seconds", p.maxTaskSeconds)
    metrics.put("median_task_seconds", p.medianTaskSeconds)
    metrics.put("clones", p.clones.toDouble)
    metrics.put("spilled_bytes", p.spilledBytes.toDouble)
    metrics.put("largest_task_spilled_bytes", p.largestTaskSpilledBytes.toDouble)
    metrics.put("shuffle_bytes_read", p.shuffleBytesRead.toDouble)
    metrics.put("hottest_share", p.f)
    context.record(p.arm, params, metrics, p.rep)
  }
  final case class Regime(
      name: String,
      topology: SparkTopology.LocalCluster,
      slots: Int,
      exponents: Seq[Double],
      records: Long,
      parkNanos: Long,
      maps: Int,
      chunkBytes: Long,
      pairs: Boolean = false,
      ipBits: Int = ClickLog.IpBits,
      settings: Map[String, String] = Map.empty,
      started: String = java.time.Instant.now().toString
  )

  final case class Point(
      regime: String,
      slots: Int,
      arm: String,
      s: Double,
      f: Double,
      rep: Int,
      ok: Boolean,
      error: String,
      jobSeconds: Double = 0,
      reduceSeconds: Double = 0,
      maxTaskSeconds: Double = 0,
      medianTaskSeconds: Double = 0,
      clones: Long = 0,
      spilledBytes: Long = 0,
      largestTaskSpilledBytes: Long = 0,
      shuffleBytesRead: Long = 0,
      workload: String = "clicklog",
      warmUpRounds: Int = 0,
      warmUpSettled: Boolean = true,
      run: String = "",
      revision: String = ""
  ) {

    /** Bounds for a system that cannot split a partition: tight (a list schedule) and Amdahl's, as the thesis has it. */
    def tightBound: Double = math.max(1.0, slots * f)
    def amdahlBound: Double = slots * f + 1 - f
  }

  /** Clicks of the figure's regimes; another count makes its own regime (its own rows and normalization). */
  val DefaultRecords: Map[String, Long] =
    Map("real CPU" -> 24000000L, "emulated compute" -> 2000000L)

  /**
   * `base` with the clicks named when they are not its kind's default: a run at another size is another regime,
   * never normalized against, or drawn as, the default size's points. Also applied to result lines read back, which
   * before 2026-11-30 did not name their size.
   */
  def regimeName(base: String, records: Long): String = {
    val default = DefaultRecords.collectFirst { case (k, n) if base.startsWith(k) => n }
    val clicks = if (records % 1000000 == 0) s"${records / 1000000}M" else records.toString
    if (base.contains(" clicks") || default.forall(_ == records)) base else s"$base, $clicks clicks"
  }

  /** `xs` turned left by `rep` places: rep 0 is `xs` itself. */
  def rotated[A](xs: Seq[A], rep: Int): Seq[A] =
    if (xs.isEmpty) xs else { val k = rep % xs.size; xs.drop(k) ++ xs.take(k) }

  final case class Arm(cluster: String, hurricane: Boolean)

  /** Stock runs in Hurricane's cluster with the per-job switch off: the delegate's read, untouched. */
  val Arms: Map[String, Arm] = Map(
    "stock" -> Arm("hurricane", hurricane = false),
    "dynamic" -> Arm("hurricane", hurricane = true),
    "speculation" -> Arm("speculation", hurricane = false),
    "static" -> Arm("static", hurricane = true),
    "seeded" -> Arm("seeded", hurricane = true),
    "leaky" -> Arm("leaky", hurricane = true),
    "unweighed" -> Arm("unweighed", hurricane = true)
  )

  private val Base = Map(
    "spark.plugins" -> classOf[HurricanePlugin].getName,
    "spark.shuffle.manager" -> classOf[HurricaneShuffleManager].getName
  )

  val Clusters: Map[String, Map[String, String]] = Map(
    "hurricane" -> Base,
    "speculation" -> (Base + ("spark.speculation" -> "true")),
    // Static seeding's threshold (64m by default) scaled down with the data, as the chunks are: `static` seeds
    // only, `seeded` seeds and then clones at run time (dynamic mode), the whole of the thesis's policy.
    "static" -> (Base + ("spark.levee.hurricane.mode" -> "static") + ("spark.levee.hurricane.static.thresholdBytes" -> "1m")),
    "seeded" -> (Base + ("spark.levee.hurricane.static.thresholdBytes" -> "1m")),
    "leaky" -> (Base + ("spark.levee.hurricane.shuffle.delegate" -> classOf[
      LeakyShuffleManager
    ].getName)),
    // Dynamic mode with the merge not weighed: the thesis's Eq. 4.1 alone, as Hurricane cloned before the policy
    // counted an aggregation's merge (clone.mergeCost 0).
    "unweighed" -> (Base + ("spark.levee.hurricane.clone.mergeCost" -> "0"))
  )
}
