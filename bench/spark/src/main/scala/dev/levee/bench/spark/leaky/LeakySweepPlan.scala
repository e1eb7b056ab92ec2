package dev.levee.bench.spark.leaky

import java.util.Locale

import scala.annotation.meta.field
import scala.jdk.CollectionConverters._

import dev.levee.bench.cli.{BadArgumentException, Converters, Preset, Range => Bounds}
import dev.levee.leaky.LeakyKeys
import picocli.CommandLine.Option

/**
 * What one `leaky` bench run measures: for each GC and executor heap, one cluster per variant and repetition, and in
 * it every operator on every dataset at every reduce-task count. The DMR of a point (input bytes / reduce tasks /
 * memory per task, the paper's definition) follows from the input size, the reduce tasks and the heap.
 */
final case class LeakySweepPlan(
    records: Long,
    reduceTasks: Seq[Int],
    memoriesMb: Seq[Int],
    repetitions: Int,
    gcs: Seq[LeakySweepPlan.Gc],
    datasets: Seq[String],
    ops: Seq[String],
    jobTimeoutSeconds: Int,
    variants: Seq[String] = LeakySweepPlan.Variants,
    leakyConf: Map[String, String] = Map.empty,
    runsPerCluster: Int = 1,
    executorJavaOptions: String = ""
) {

  def clusters: Int = gcs.size * memoriesMb.size * repetitions * variants.size

  /** The leaky settings as one result parameter (sorted, so equal settings merge in the report); "" for none. */
  def leakyConfParam: String = leakyConf.toSeq.sorted.map { case (k, v) => s"$k=$v" }.mkString(",")
  def jobs: Int = clusters * ops.size * datasets.size * reduceTasks.size * runsPerCluster
}

object LeakySweepPlan {

  final case class Gc(name: String, flag: String)
  val Gcs: Seq[Gc] = Seq(Gc("parallel", "-XX:+UseParallelGC"), Gc("g1", "-XX:+UseG1GC"))
  val Datasets: Seq[String] = Seq("uniform", "zipf")
  val Ops: Seq[String] = Seq("groupby", "join") ++ dev.levee.bench.spark.AggregationWorkloads.Ops
  val Variants: Seq[String] = LeakySuite.Variants

  /** Smallest executor heap offered: Spark's executor itself needs a few tens of MB. */
  val MinMemoryMb = 32

  /** local-cluster workers are started with this much memory each. */
  val MaxMemoryMb = 1024

  /**
   * The suite's options. Without --quick, the full sweep: ~10-15 min on 2 quiet cores, 16 clusters of ~20-40 s
   * start-up plus 12 jobs each. The DMR (40 MB of input) reaches ~0.6 at 1 reduce task and a 64 MB heap, ~0.03 at 8
   * reduce tasks and 192 MB; --records 4m or --memories 32m,... pushes the top past 1, where stock thrashes until
   * --job-timeout. --quick (~2-3 min) is 2 clusters of 8 jobs each, a smoke run rather than a sweep.
   */
  final class Options {
    @(Option @field)(
      names = Array("--quick"),
      description = Array(
        "small preset (~2 min): records 300k, reduce-tasks 1,4, memories 96m, repetitions 1, gcs parallel, " +
          "variants stock,leaky; explicit options still win"
      )
    )
    @(Preset @field)(
      Array(
        "records=300k",
        "reduce-tasks=1,4",
        "memories=96m",
        "repetitions=1",
        "gcs=parallel",
        "variants=stock,leaky"
      )
    )
    var quick: Boolean = false

    @(Option @field)(
      names = Array("--records"),
      paramLabel = "N",
      defaultValue = "2m",
      description = Array("records per dataset (the join's right side has a tenth)")
    )
    @(Bounds @field)(min = 1)
    var records: Long = _

    @(Option @field)(
      names = Array("--reduce-tasks"),
      paramLabel = "N,..",
      split = ",",
      description = Array("reduce task counts (the DMR's denominator)")
    )
    @(Bounds @field)(min = 1, max = 10000)
    var reduceTasks: java.util.List[Integer] = java.util.List.of[Integer](1, 2, 8)

    @(Option @field)(
      names = Array("--memories"),
      paramLabel = "SIZE,..",
      split = ",",
      converter = Array(classOf[Converters.ByteSize]),
      defaultValue = "64m,192m",
      description = Array("executor heaps, 32m..1024m")
    )
    @(Bounds @field)(min = 33554432.0, max = 1073741824.0) // MinMemoryMb..MaxMemoryMb
    var memories: java.util.List[java.lang.Long] = _

    @(Option @field)(
      names = Array("--repetitions"),
      paramLabel = "N",
      description = Array(
        "clusters per heap and variant, each running every point (medians over all runs reported)"
      )
    )
    @(Bounds @field)(min = 1, max = 100)
    var repetitions: Int = 2

    @(Option @field)(
      names = Array("--executor-java-options"),
      paramLabel = "OPTS",
      description = Array(
        "extra executor JVM options, every variant alike (e.g. a JFR recording: -XX:StartFlightRecording=...)"
      )
    )
    var executorJavaOptions: String = ""

    @(Option @field)(
      names = Array("--runs-per-cluster"),
      paramLabel = "N",
      description = Array(
        "runs of every point inside each cluster (more repetitions without more cluster starts)"
      )
    )
    @(Bounds @field)(min = 1, max = 100)
    var runsPerCluster: Int = 1

    @(Option @field)(
      names = Array("--gcs"),
      paramLabel = "GC,..",
      description = Array("executor collectors: parallel, g1")
    )
    var gcs: String = "parallel,g1"

    @(Option @field)(
      names = Array("--datasets"),
      paramLabel = "NAME,..",
      description = Array("uniform (the paper's) and/or zipf keys")
    )
    var datasets: String = "uniform,zipf"

    @(Option @field)(
      names = Array("--ops"),
      paramLabel = "OP,..",
      description = Array(
        "groupby, join (the paper's), reduce (word count), aggregate (a set per key), combine (combineByKey " +
          "without map-side combine), distinct"
      )
    )
    var ops: String = "groupby,join"

    @(Option @field)(
      names = Array("--job-timeout"),
      paramLabel = "SECONDS",
      description = Array("a job still running after this is cancelled and counted failed")
    )
    @(Bounds @field)(min = 1, max = 86400)
    var jobTimeout: Int = 180

    @(Option @field)(
      names = Array("--variants"),
      paramLabel = "NAME,..",
      description = Array(
        "stock, leaky, dataframe (Tungsten rows, on-heap), dataframe-offheap (half the memory off-heap); " +
          "without stock: an ablation, no frontier"
      )
    )
    var variants: String = "stock,leaky,dataframe,dataframe-offheap"

    @(Option @field)(
      names = Array("--leaky-conf"),
      paramLabel = "KEY=VALUE,..",
      description = Array(
        "spark.levee.leaky.* settings for the leaky variant, recorded with its results (e.g. " +
          "spark.levee.leaky.memory.maxLiveFraction=1 switches the live-heap ceiling off)"
      )
    )
    var leakyConf: String = ""

    @(Option @field)(
      names = Array("--figures"),
      description = Array(
        "only draw the figures (results/figures/leaky-*.png) from the results file, no runs"
      )
    )
    var figures: Boolean = false

    @(Option @field)(
      names = Array("--figures-revision"),
      paramLabel = "REV",
      description = Array(
        "git revision (prefix) whose points the figures show; default: for each figure, the newest that measured " +
          "stock and leaky and can draw it"
      )
    )
    var figuresRevision: String = ""
  }

  def parse(o: Options): LeakySweepPlan = {
    def list(raw: String) =
      raw.split(',').map(_.trim.toLowerCase(Locale.ROOT)).filter(_.nonEmpty).toSeq.distinct
    def choices(name: String, raw: String, allowed: Seq[String]) = {
      val picked = list(raw)
      val bad = picked.filterNot(allowed.contains)
      if (picked.isEmpty || bad.nonEmpty) {
        throw new BadArgumentException(
          s"--$name: ${bad.mkString(",")} not allowed; allowed: ${allowed.mkString(", ")}"
        )
      }
      picked
    }
    val gcNames = choices("gcs", o.gcs, Gcs.map(_.name))
    LeakySweepPlan(
      records = o.records,
      reduceTasks = o.reduceTasks.asScala.map(_.intValue).distinct.sorted.toSeq,
      memoriesMb = o.memories.asScala.map(b => (b >> 20).toInt).distinct.sorted.toSeq,
      repetitions = o.repetitions,
      gcs = Gcs.filter(g => gcNames.contains(g.name)),
      datasets = choices("datasets", o.datasets, Datasets),
      ops = choices("ops", o.ops, Ops),
      jobTimeoutSeconds = o.jobTimeout,
      variants = choices("variants", o.variants, Variants),
      leakyConf = parseLeakyConf(o.leakyConf),
      runsPerCluster = o.runsPerCluster,
      executorJavaOptions = o.executorJavaOptions.trim
    )
  }

  /** KEY=VALUE pairs under spark.levee.leaky., checked by the module's own parser so a bad value fails here. */
  private def parseLeakyConf(raw: String): Map[String, String] = {
    val pairs = raw
      .split(',')
      .map(_.trim)
      .filter(_.nonEmpty)
      .map { kv =>
        val eq = kv.indexOf('=')
        val key = if (eq > 0) kv.take(eq).trim else ""
        if (!key.startsWith(LeakyKeys.Prefix) || key == LeakyKeys.Prefix) {
          throw new BadArgumentException(
            s"--leaky-conf: '$kv' is not ${LeakyKeys.Prefix}<key>=<value>"
          )
        }
        key -> kv.drop(eq + 1).trim
      }
      .toMap
    try LeakyKeys.check(pairs)
    catch {
      case e: IllegalArgumentException =>
        throw new BadArgumentException(s"--leaky-conf: ${e.getMessage}")
    }
    pairs
  }
}
