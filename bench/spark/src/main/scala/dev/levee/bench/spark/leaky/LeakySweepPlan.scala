package dev.levee.bench.spark.leaky

import java.util.Locale

import dev.levee.bench.cli.{BadArgumentException, OptionSpec, ParsedOptions, Sizes}
import dev.levee.leaky.LeakyKeys

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

  private final case class Preset(
      records: String,
      reduceTasks: String,
      memories: String,
      repetitions: String,
      gcs: String,
      datasets: String,
      ops: String,
      variants: String
  )

  // ~10-15 min on 2 quiet cores: 16 clusters of ~20-40 s start-up plus 12 jobs each. The DMR (40 MB of input)
  // reaches ~0.6 at 1 reduce task and a 64 MB heap, ~0.03 at 8 reduce tasks and 192 MB; --records 4m or
  // --memories 32m,... pushes the top past 1, where stock thrashes until --job-timeout.
  private val Full =
    Preset(
      "2m",
      "1,2,8",
      "64m,192m",
      "2",
      "parallel,g1",
      "uniform,zipf",
      "groupby,join",
      LeakySuite.Variants.mkString(",")
    )
  // ~2-3 min: 2 clusters of 8 jobs each, a smoke run rather than a sweep.
  private val Quick =
    Preset("300k", "1,4", "96m", "1", "parallel", "uniform,zipf", "groupby,join", "stock,leaky")

  def options: Seq[OptionSpec] = Seq(
    OptionSpec
      .flag("quick", "small preset (~2 min): " + describe(Quick) + "; explicit options still win"),
    OptionSpec.optional(
      "records",
      "N",
      "records per dataset (the join's right side has a tenth)",
      Full.records
    ),
    OptionSpec.optional(
      "reduce-tasks",
      "N,..",
      "reduce task counts (the DMR's denominator)",
      Full.reduceTasks
    ),
    OptionSpec.optional(
      "memories",
      "SIZE,..",
      s"executor heaps, ${MinMemoryMb}m..${MaxMemoryMb}m",
      Full.memories
    ),
    OptionSpec.optional(
      "repetitions",
      "N",
      "clusters per heap and variant, each running every point (medians over all runs reported)",
      Full.repetitions
    ),
    OptionSpec.optional(
      "executor-java-options",
      "OPTS",
      "extra executor JVM options, every variant alike (e.g. a JFR recording: -XX:StartFlightRecording=...)",
      ""
    ),
    OptionSpec.optional(
      "runs-per-cluster",
      "N",
      "runs of every point inside each cluster (more repetitions without more cluster starts)",
      "1"
    ),
    OptionSpec
      .optional("gcs", "GC,..", "executor collectors: " + Gcs.map(_.name).mkString(", "), Full.gcs),
    OptionSpec
      .optional("datasets", "NAME,..", "uniform (the paper's) and/or zipf keys", Full.datasets),
    OptionSpec.optional(
      "ops",
      "OP,..",
      "groupby, join (the paper's), reduce (word count), aggregate (a set per key), combine (combineByKey without " +
        "map-side combine), distinct",
      Full.ops
    ),
    OptionSpec.optional(
      "job-timeout",
      "SECONDS",
      "a job still running after this is cancelled and counted failed",
      "180"
    ),
    OptionSpec.optional(
      "variants",
      "NAME,..",
      "stock, leaky, dataframe (Tungsten rows, on-heap), dataframe-offheap (half the memory off-heap); without " +
        "stock: an ablation, no frontier",
      Full.variants
    ),
    OptionSpec.optional(
      "leaky-conf",
      "KEY=VALUE,..",
      s"${LeakyKeys.Prefix}* settings for the leaky variant, recorded with its results (e.g. " +
        s"${LeakyKeys.MaxLiveFraction}=1 switches the live-heap ceiling off)",
      ""
    )
  )

  private def describe(p: Preset) =
    s"records ${p.records}, reduce-tasks ${p.reduceTasks}, memories ${p.memories}, repetitions ${p.repetitions}, " +
      s"gcs ${p.gcs}, variants ${p.variants}"

  def parse(o: ParsedOptions): LeakySweepPlan = {
    val preset = if (o.flag("quick")) Quick else Full
    def value(name: String, presetValue: String) =
      if (o.isGiven(name)) o.string(name) else presetValue
    def list(name: String, presetValue: String) =
      value(name, presetValue)
        .split(',')
        .map(_.trim.toLowerCase(Locale.ROOT))
        .filter(_.nonEmpty)
        .toSeq
        .distinct
    def choices(name: String, presetValue: String, allowed: Seq[String]) = {
      val picked = list(name, presetValue)
      val bad = picked.filterNot(allowed.contains)
      if (picked.isEmpty || bad.nonEmpty) {
        throw new BadArgumentException(
          s"--$name: ${bad.mkString(",")} not allowed; allowed: ${allowed.mkString(", ")}"
        )
      }
      picked
    }
    def positive(name: String, raw: String, max: Long): Long = {
      val t = raw.trim.toLowerCase(Locale.ROOT)
      val scale = t.lastOption.collect {
        case 'k' => 1000L; case 'm' => 1000000L; case 'g' => 1000000000L
      }
      val v = t
        .stripSuffix(scale.fold("")(_ => t.takeRight(1)))
        .toLongOption
        .map(_ * scale.getOrElse(1L))
        .getOrElse(
          throw new BadArgumentException(
            s"--$name: '$raw' is not a count (suffixes k, m, g allowed)"
          )
        )
      if (v < 1 || v > max)
        throw new BadArgumentException(s"--$name: $raw must be between 1 and $max")
      v
    }
    val memories = list("memories", preset.memories).map { raw =>
      val bytes =
        try Sizes.parseBytes(raw)
        catch {
          case _: RuntimeException =>
            throw new BadArgumentException(s"--memories: '$raw' is not a size such as 64m")
        }
      val mb = bytes >> 20
      if (mb < MinMemoryMb || mb > MaxMemoryMb) {
        throw new BadArgumentException(
          s"--memories: $raw is outside ${MinMemoryMb}m..${MaxMemoryMb}m"
        )
      }
      mb.toInt
    }.sorted
    val reduceTasks =
      list("reduce-tasks", preset.reduceTasks).map(positive("reduce-tasks", _, 10000).toInt).sorted
    val gcNames = choices("gcs", preset.gcs, Gcs.map(_.name))
    LeakySweepPlan(
      records = positive("records", value("records", preset.records), Long.MaxValue),
      reduceTasks = reduceTasks,
      memoriesMb = memories,
      repetitions = positive("repetitions", value("repetitions", preset.repetitions), 100).toInt,
      gcs = Gcs.filter(g => gcNames.contains(g.name)),
      datasets = choices("datasets", preset.datasets, Datasets),
      ops = choices("ops", preset.ops, Ops),
      jobTimeoutSeconds = positive("job-timeout", o.string("job-timeout"), 86400).toInt,
      variants = choices("variants", preset.variants, Variants),
      leakyConf = parseLeakyConf(if (o.isGiven("leaky-conf")) o.string("leaky-conf") else ""),
      runsPerCluster = positive("runs-per-cluster", o.string("runs-per-cluster"), 100).toInt,
      executorJavaOptions = o.string("executor-java-options").trim
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
