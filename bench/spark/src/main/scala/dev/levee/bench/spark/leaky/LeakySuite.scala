package dev.levee.bench.spark.leaky

import java.nio.file.{Files, Path}
import java.util
import java.util.concurrent.{Executors, ScheduledExecutorService, TimeUnit}

import scala.collection.mutable
import scala.jdk.CollectionConverters._
import scala.util.control.NonFatal

import org.apache.spark.SparkContext

import dev.levee.bench.{Suite, SuiteContext}
import dev.levee.bench.results.{Measurement, RepoLayout}
import dev.levee.bench.spark.{
  AggregationWorkloads,
  DataFrameWorkloads,
  GroupByWorkload,
  JoinWorkload,
  OutputDigest
}
import dev.levee.it.spark.{SparkCluster, SparkTopology}
import dev.levee.leaky.implicits._

/**
 * The leaky buffer paper's evaluation at local scale: groupByKey and join over the paper's artificial data (and
 * Zipf keys) on local-cluster with two one-core executors, Spark's sort shuffle ("stock") against the leaky shuffle
 * manager and leaky join ("leaky"), across executor heaps, reduce-task counts (so DMRs from a few hundredths to
 * about one) and collectors. Every point records reduce-stage time, GC share of reduce task time, the largest
 * per-task peak execution memory and whether the job failed (a failure is recorded, never fatal to the sweep); the
 * summary adds, per curve, the smallest heap keeping the median reduce time within 5% of stock's best.
 *
 * A cluster is started per (collector, heap, variant, repetition) and runs every point of that combination; stock
 * and leaky clusters alternate which goes first from one pair to the next, so drift in machine load hits both.
 */
final class LeakySuite extends Suite {
  import LeakySuite._

  override def name(): String = "leaky"

  override def summary(): String =
    "leaky buffer vs stock Spark: groupByKey/join DMR sweep on local-cluster[2,1,1024], ParallelGC and G1"

  override def newOptions(): AnyRef = new LeakySweepPlan.Options

  override def run(context: SuiteContext): Unit =
    if (context.options(classOf[LeakySweepPlan.Options]).figures) writeFigures(context)
    else {
      val plan = sweep(context)
      // An ablation (no stock variant) has no frontier to draw; its table above is its result.
      if (plan.variants.contains(LeakySuite.Stock)) writeFigures(context)
      else context.err().println("leaky: no stock variant in this run, so no figures")
    }

  private def writeFigures(context: SuiteContext): Unit = {
    val revision =
      Option(context.options(classOf[LeakySweepPlan.Options]).figuresRevision)
        .map(_.trim)
        .filter(_.nonEmpty)
    LeakyFigures
      .writeFromResults(context.store(), revision)
      .foreach(d =>
        context.err().println(s"leaky: wrote ${d.file} (points of ${d.revision.take(7)})")
      )
  }

  private def sweep(context: SuiteContext): LeakySweepPlan = {
    val plan = LeakySweepPlan.parse(context.options(classOf[LeakySweepPlan.Options]))
    val base = RepoLayout.repoRoot(Path.of("").toAbsolutePath).resolve(".levee/bench-leaky")
    Files.createDirectories(base)
    val inputs =
      plan.datasets.map(d => d -> LeakyInputs.prepare(base, d, plan.records, context)).toMap
    val warmUpInput = LeakyInputs.prepare(base, "uniform", WarmUpRecords, context)
    context
      .err()
      .println(
        s"leaky: ${plan.clusters} clusters, ${plan.jobs} jobs; inputs " +
          inputs.values.map(i => f"${i.dataset} ${i.mainBytes / 1e6}%.1f MB").mkString(", ")
      )

    val runs = mutable.ArrayBuffer.empty[PointRun]
    val firstDigests = mutable.Map.empty[(String, String, Int), OutputDigest]
    val timer = Executors.newSingleThreadScheduledExecutor { r =>
      val t = new Thread(r, "leaky-bench-job-timeout"); t.setDaemon(true); t
    }
    try {
      var pair = 0
      for (gc <- plan.gcs; memoryMb <- plan.memoriesMb; rep <- 0 until plan.repetitions) {
        val order = if (pair % 2 == 0) plan.variants else plan.variants.reverse
        pair += 1
        for (variant <- order) {
          val cluster =
            new ClusterRun(
              context,
              plan,
              inputs,
              warmUpInput,
              gc,
              memoryMb,
              variant,
              rep,
              timer,
              firstDigests
            )
          runs ++= cluster.run()
        }
      }
    } finally timer.shutdownNow()

    val summaries = SweepResults.summarize(runs.toSeq)
    recordFrontiers(context, plan, summaries)
    LeakyReport.print(context.out(), plan, inputs.values.toSeq, summaries)
    plan
  }

  private def recordFrontiers(
      context: SuiteContext,
      plan: LeakySweepPlan,
      summaries: Seq[PointSummary]
  ): Unit =
    if (plan.variants.contains(Stock)) summaries.map(_.key.curve).distinct.foreach { curve =>
      val params = new util.LinkedHashMap[String, Object]()
      params.put("kind", "memory_frontier")
      params.put("op", curve.op)
      params.put("dataset", curve.dataset)
      params.put("gc", curve.gc)
      params.put("reduce_tasks", Int.box(curve.reduceTasks))
      params.put("records", Long.box(plan.records))
      params.put("memories_mb", plan.memoriesMb.mkString(","))
      if (plan.leakyConf.nonEmpty) params.put("leaky_conf", plan.leakyConfParam)
      val best = SweepResults.stockBest(summaries, curve, Stock)
      plan.variants.foreach { variant =>
        val smallest = SweepResults.smallestMemoryWithinTolerance(summaries, curve, variant, Stock)
        context.record(
          variant,
          params,
          util.Map.of(
            "smallest_memory_within_5pct_of_stock_best_mb",
            Double.box(smallest.fold(Double.NaN)(_.toDouble)),
            "stock_best_reduce_stage_seconds",
            Double.box(best.getOrElse(Double.NaN))
          ),
          0
        )
      }
    }
}

object LeakySuite {
  val Stock: String = Measurement.STOCK
  val Leaky = "leaky"

  /** The DataFrame peer (Tungsten rows), on-heap execution memory. */
  val DataFrame = "dataframe"

  /** The DataFrame peer with spark.memory.offHeap.enabled: half the memory as heap, half off-heap. */
  val DataFrameOffHeap = "dataframe-offheap"

  val Variants: Seq[String] = Seq(Stock, Leaky, DataFrame, DataFrameOffHeap)

  /** Records of the warm-up input: enough to reach every code path, small enough to cost a second or two. */
  val WarmUpRecords = 20000L

  /** Operators each variant runs: the DataFrame peer has groupBy and join only. */
  def appliesTo(variant: String, op: String): Boolean =
    !variant.startsWith(DataFrame) || op == "groupby" || op == "join"

  val LeakyManager = "org.apache.spark.shuffle.levee.LeakyShuffleManager"
  val StockManager = "org.apache.spark.shuffle.sort.SortShuffleManager"

  val Topology: SparkTopology.LocalCluster = SparkTopology.LocalCluster(2, 1, 1024)

  /**
   * Spark reserves 300 MB of every executor heap, which would rule out the small heaps a local-scale DMR sweep
   * needs (Spark refuses heaps under 450 MB). Reserve instead the share a 4 GB production executor reserves.
   */
  def reservedMemoryBytes(memoryMb: Int): Long = (memoryMb.toLong << 20) * 300 / 4096

  /**
   * The executor heap of a variant given `memoryMb` of memory: all of it, except for the off-heap DataFrame variant,
   * whose off-heap execution memory counts as memory too (half each).
   */
  def heapMb(variant: String, memoryMb: Int): Int =
    if (variant == DataFrameOffHeap) memoryMb / 2 else memoryMb

  def settings(
      variant: String,
      gcFlag: String,
      memoryMb: Int,
      leakyConf: Map[String, String],
      extraJavaOptions: String = ""
  ): Map[String, String] = {
    val heap = heapMb(variant, memoryMb)
    val byVariant: Map[String, String] = variant match {
      case Leaky            => leakyConf
      case DataFrame        => DataFrameWorkloads.SessionSettings
      case DataFrameOffHeap =>
        DataFrameWorkloads.SessionSettings ++ Map(
          "spark.memory.offHeap.enabled" -> "true",
          "spark.memory.offHeap.size" -> s"${memoryMb - heap}m"
        )
      case _ => Map.empty
    }
    byVariant ++ Map(
      "spark.shuffle.manager" -> (if (variant == Leaky) LeakyManager else StockManager),
      "spark.executor.memory" -> s"${heap}m",
      "spark.testing.reservedMemory" -> reservedMemoryBytes(heap).toString,
      // Netty's direct memory defaults to -Xmx, and Spark refuses to start an executor with less than
      // spark.network.maxRemoteBlockSizeFetchToMem (200 MB) of it: fix it so small heaps start and every heap gets the
      // same network buffers.
      "spark.executor.extraJavaOptions" -> s"$gcFlag -XX:MaxDirectMemorySize=256m $extraJavaOptions".trim
    )
  }

  /** Memory allocated to each task: the heap of a one-core executor. */
  def dmr(inputBytes: Long, reduceTasks: Int, memoryMb: Int): Double =
    inputBytes.toDouble / reduceTasks / (memoryMb.toLong << 20)
}

/** One cluster: every op x dataset x reduce-task point of one variant, collector, heap and repetition. */
private final class ClusterRun(
    context: SuiteContext,
    plan: LeakySweepPlan,
    inputs: Map[String, LeakyInput],
    warmUpInput: LeakyInput,
    gc: LeakySweepPlan.Gc,
    memoryMb: Int,
    variant: String,
    rep: Int,
    timer: ScheduledExecutorService,
    firstDigests: mutable.Map[(String, String, Int), OutputDigest]
) {
  import LeakySuite._

  private val points =
    for (op <- plan.ops if appliesTo(variant, op); dataset <- plan.datasets; r <- plan.reduceTasks)
      yield PointKey(op, dataset, gc.name, memoryMb, r)

  /** Every point, `runsPerCluster` times in a row; a run's repetition number counts across clusters. */
  private val runs =
    for (run <- 0 until plan.runsPerCluster; p <- points) yield (p, rep * plan.runsPerCluster + run)

  def run(): Seq[PointRun] = {
    context
      .err()
      .println(
        s"leaky: $variant, ${gc.name}, ${memoryMb}m heap, repetition ${rep + 1}: starting " +
          Topology.master
      )
    val started =
      try
        Right(
          SparkCluster.start(
            Topology,
            settings(variant, gc.flag, memoryMb, plan.leakyConf, plan.executorJavaOptions),
            s"levee-leaky-$variant"
          )
        )
      catch { case NonFatal(e) => Left(e) }
    started match {
      case Left(e) =>
        context.err().println(s"leaky: cluster did not start: $e")
        runs.map { case (p, r) =>
          record(p, failedRun(p, r, s"cluster did not start: ${e.getMessage}"))
        }
      case Right(cluster) =>
        var results = Seq.empty[PointRun]
        try {
          val listener = new ReduceStageListener
          cluster.sc.addSparkListener(listener)
          warmUp(cluster.sc)
          results = runs.map { case (p, r) => record(p, measure(cluster.sc, listener, p, r)) }
        } finally {
          try cluster.close()
          catch { case NonFatal(e) => context.err().println(s"leaky: closing the cluster: $e") }
        }
        results
    }
  }

  /**
   * JIT (and, for DataFrames, query-planning) warm-up: every measured operator of this variant once on a small input
   * of the same format, so the first measured point does not pay for it. It runs under the job timeout too, and a
   * failure here is only reported: the measured points decide.
   */
  private def warmUp(sc: SparkContext): Unit =
    withTimeout(sc, "leaky-warm-up") {
      points.map(_.op).distinct.foreach(op => workload(sc, op, warmUpInput, 2))
    }.left.foreach(e => context.err().println(s"leaky: warm-up failed (the points will tell): $e"))

  /** What the point measures: `op` on `input`, in this variant, ending in the digest of its whole output. */
  private def workload(sc: SparkContext, op: String, input: LeakyInput, r: Int): OutputDigest = {
    val (main, right) = (input.main.toUri.toString, input.right.toUri.toString)
    (op, variant) match {
      case ("groupby", DataFrame | DataFrameOffHeap) => DataFrameWorkloads.groupBy(sc, main, r)
      case ("join", DataFrame | DataFrameOffHeap)    => DataFrameWorkloads.join(sc, main, right, r)
      case ("groupby", _)                            => GroupByWorkload.run(sc, main, r)
      case ("join", _)                               =>
        val join: JoinWorkload.Join =
          if (variant == Leaky) (l, rr, n) => l.leakyJoin(rr, n) else JoinWorkload.stockJoin
        JoinWorkload.run(sc, main, right, r, join)
      case (aggregation, _) => AggregationWorkloads.run(aggregation, sc, main, r)
    }
  }

  /** Runs `body` in job group `group`, cancelling the group's jobs if it runs longer than the job timeout. */
  private def withTimeout[T](sc: SparkContext, group: String)(body: => T): Either[Throwable, T] = {
    sc.setJobGroup(group, group, interruptOnCancel = true)
    val cancel = timer.schedule(
      new Runnable { def run(): Unit = sc.cancelJobGroup(group) },
      plan.jobTimeoutSeconds.toLong,
      TimeUnit.SECONDS
    )
    try Right(body)
    catch { case NonFatal(e) => Left(e) }
    finally {
      cancel.cancel(false)
      sc.clearJobGroup()
    }
  }

  private def measure(
      sc: SparkContext,
      listener: ReduceStageListener,
      p: PointKey,
      repetition: Int
  ): PointRun = {
    val input = inputs(p.dataset)
    val dmr = LeakySuite.dmr(input.mainBytes, p.reduceTasks, memoryMb)
    val group = s"leaky-${p.op}-${p.dataset}-${p.reduceTasks}"
    val (jobsBefore, stagesBefore) = (listener.jobEndsSeen, listener.stagesSeen)
    val t0 = System.nanoTime()
    val outcome: Either[Throwable, OutputDigest] = withTimeout(sc, group) {
      workload(sc, p.op, input, p.reduceTasks)
    }
    val jobSeconds = (System.nanoTime() - t0) / 1e9
    // The job's end event follows its stages' events; a job that never started has none to wait for.
    try listener.awaitJobEnds(jobsBefore + 1, 10000)
    catch { case NonFatal(_) => }
    val reduce = listener.lastStageAfter(stagesBefore)
    val mismatch = outcome match {
      case Right(digest) =>
        firstDigests.get((p.op, p.dataset, p.reduceTasks)) match {
          case None        => firstDigests((p.op, p.dataset, p.reduceTasks)) = digest; false
          case Some(first) => first != digest
        }
      case Left(_) => false
    }
    if (mismatch)
      context.err().println(s"leaky: WARNING $variant output of $p differs from the first run's")
    val failure = outcome.left.toOption.map(e =>
      s"${e.getClass.getSimpleName}: ${String.valueOf(e.getMessage).take(300)}"
    )
    failure.foreach(f =>
      context.err().println(s"leaky: $variant $p failed after ${jobSeconds.round} s: $f")
    )
    PointRun(
      p,
      variant,
      repetition,
      dmr,
      failure.isDefined,
      failure.getOrElse(""),
      jobSeconds,
      reduce.fold(jobSeconds)(_.seconds),
      reduce.fold(0.0)(_.gcShare),
      reduce.fold(0L)(_.maxTaskPeakMemoryBytes),
      reduce.fold(0L)(_.spilledBytes),
      mismatch,
      reduce.fold(ReduceStageListener.TaskTimes.Zero)(_.times)
    )
  }

  private def failedRun(p: PointKey, repetition: Int, why: String): PointRun =
    PointRun(
      p,
      variant,
      repetition,
      LeakySuite.dmr(inputs(p.dataset).mainBytes, p.reduceTasks, memoryMb),
      failed = true,
      why,
      0,
      0,
      0,
      0,
      0,
      outputMismatch = false
    )

  private def record(p: PointKey, r: PointRun): PointRun = {
    val params = new util.LinkedHashMap[String, Object]()
    params.put("kind", "point")
    params.put("op", p.op)
    params.put("dataset", p.dataset)
    params.put("gc", p.gc)
    params.put("executor_memory_mb", Int.box(p.memoryMb))
    params.put("heap_mb", Int.box(heapMb(variant, p.memoryMb)))
    params.put("reduce_tasks", Int.box(p.reduceTasks))
    params.put("records", Long.box(plan.records))
    params.put("input_bytes", Long.box(inputs(p.dataset).mainBytes))
    params.put("dmr", f"${r.dmr}%.3f")
    params.put("master", Topology.master)
    if (variant == Leaky && plan.leakyConf.nonEmpty) params.put("leaky_conf", plan.leakyConfParam)
    val metrics = new util.LinkedHashMap[String, java.lang.Double]()
    metrics.put("failed", Double.box(if (r.failed) 1 else 0))
    metrics.put("job_seconds", Double.box(r.jobSeconds))
    metrics.put("reduce_stage_seconds", Double.box(r.reduceSeconds))
    metrics.put("reduce_gc_share", Double.box(r.gcShare))
    metrics.put(
      "reduce_max_task_peak_execution_memory_bytes",
      Double.box(r.peakMemoryBytes.toDouble)
    )
    metrics.put("reduce_spilled_bytes", Double.box(r.spilledBytes.toDouble))
    // Where the reduce tasks' time went (sums over the stage's tasks), to tell computing from waiting.
    metrics.put("reduce_task_run_seconds", Double.box(r.reduceTimes.runSeconds))
    metrics.put("reduce_task_cpu_seconds", Double.box(r.reduceTimes.cpuSeconds))
    metrics.put("reduce_fetch_wait_seconds", Double.box(r.reduceTimes.fetchWaitSeconds))
    metrics.put("reduce_task_deserialize_seconds", Double.box(r.reduceTimes.deserializeSeconds))
    metrics.put("output_mismatch", Double.box(if (r.outputMismatch) 1 else 0))
    context.record(variant, params, metrics, r.repetition)
    r
  }
}
