package dev.levee.bench.spark

import java.nio.file.{Files, Path}
import java.util
import scala.jdk.CollectionConverters._
import dev.levee.bench.{Suite, SuiteContext}
import dev.levee.bench.cli.{Range => Bounds}
import dev.levee.bench.demo.{DemoSteps, DemoTable}
import dev.levee.bench.gen.{DatasetWriter, Datasets}
import dev.levee.bench.progress.StepProgress
import dev.levee.bench.spark.hurricane.{ClickLog, HurricaneBenchSuite}
import dev.levee.bench.results.{Measurement, RepoLayout}
import dev.levee.it.spark.{SparkCluster, SparkTopology}
import org.apache.hadoop.conf.Configuration
import picocli.CommandLine.{Option => Flag}
import scala.annotation.meta.field

/**
 * The Spark half of `./levee demo`: groupByKey over uniform five-digit keys with short string values (the leaky
 * buffer paper's artificial data) on local-cluster[2,1,1024], with Spark's sort shuffle and then with the leaky
 * shuffle manager, each on a fresh cluster, on the same generated input.
 */
final class SparkDemoSuite extends Suite {
  private val Module = "leaky-buffer-spark"
  private val LeakyManager = "org.apache.spark.shuffle.levee.LeakyShuffleManager"

  override def name(): String = "demo-spark"

  override def summary(): String =
    "the Spark-side rows of ./levee demo (local-cluster[2,1,1024], two executor JVMs)"

  override def newOptions(): AnyRef = new SparkDemoSuite.Options

  override def run(context: SuiteContext): Unit = {
    val o = context.options(classOf[SparkDemoSuite.Options])
    val runId = o.runId
    val records = o.records
    val reduceTasks = o.reduceTasks
    val repetitions = o.repetitions

    val base = RepoLayout.repoRoot(Path.of("").toAbsolutePath).resolve(".levee/demo-spark")
    Files.createDirectories(base)
    val progress = StepProgress.start(
      "demo",
      DemoSteps.plan(DemoSteps.hadoopRepetitionsDone(context.store().dir()), repetitions),
      context.store().dir()
    )
    try {
      runAll(context, progress, base, runId, records, reduceTasks, repetitions)
      hurricaneRow(context, progress, runId, o.hurricaneClicks)
    } finally progress.close()
  }

  private def runAll(
      context: SuiteContext,
      progress: StepProgress,
      base: Path,
      runId: String,
      records: Long,
      reduceTasks: Int,
      repetitions: Int
  ): Unit = {
    progress.begin(DemoSteps.SPARK_INPUT)
    val input = generate(base.resolve("groupby-input"), records, context)
    val inputBytes = Files
      .list(input)
      .iterator()
      .asScala
      .filter(_.getFileName.toString.startsWith("part-"))
      .map(Files.size(_))
      .sum
    val topology = SparkTopology.LocalCluster(2, 1, 1024)
    val dmr = inputBytes.toDouble / reduceTasks / (1024L << 20)
    val params = new util.LinkedHashMap[String, Object]()
    params.put(DemoTable.RUN_ID, runId)
    params.put(DemoTable.MODULE, Module)
    params.put(
      DemoTable.WORKLOAD,
      f"groupByKey of $records%,d records (${inputBytes / 1e6}%.0f MB), " +
        f"$reduceTasks reduce tasks on ${topology.master}, DMR $dmr%.2f"
    )

    val variants = Seq(
      Measurement.STOCK -> Map.empty[String, String],
      DemoTable.PLUGIN -> Map("spark.shuffle.manager" -> LeakyManager)
    )
    var stockDigest: Option[OutputDigest] = None
    for ((variant, settings) <- variants; rep <- 0 until repetitions) {
      progress.begin(DemoSteps.job("spark", variant, rep))
      context
        .err()
        .println(s"demo-spark: $variant run ${rep + 1}/$repetitions: starting ${topology.master}")
      SparkCluster.using(topology, settings, s"levee-demo-$variant") { cluster =>
        val listener = new StageMetrics
        cluster.sc.addSparkListener(listener)
        val start = System.nanoTime()
        val digest = GroupByWorkload.run(cluster.sc, input.toUri.toString, reduceTasks)
        val seconds = (System.nanoTime() - start) / 1e9
        val reduce = listener.lastStage
        val same = stockDigest match {
          case None           => stockDigest = Some(digest); "-"
          case Some(expected) =>
            if (expected != digest) {
              throw new IllegalStateException(
                s"demo-spark: $variant output differs from stock on the same input"
              )
            }
            "yes"
        }
        val p = new util.LinkedHashMap[String, Object](params)
        if (variant == DemoTable.PLUGIN) p.put(DemoTable.SAME_OUTPUT, same)
        context.record(
          variant,
          p,
          util.Map.of(
            DemoTable.SECONDS,
            Double.box(seconds),
            "reduce_stage_seconds",
            Double.box(reduce.seconds),
            "reduce_gc_share",
            Double.box(if (reduce.taskSeconds == 0) 0 else reduce.gcSeconds / reduce.taskSeconds),
            "reduce_peak_execution_memory_bytes",
            Double.box(reduce.peakExecutionMemoryBytes.toDouble),
            "reduce_spilled_bytes",
            Double.box(reduce.spilledBytes.toDouble)
          ),
          rep
        )
        context
          .err()
          .println(
            f"demo-spark: $variant%s job $seconds%.1f s, reduce stage ${reduce.seconds}%.1f s, " +
              f"GC ${reduce.gcSeconds}%.1f s of ${reduce.taskSeconds}%.1f s task time"
          )
      }
    }
  }

  /**
   * Hurricane's row: the thesis's ClickLog at Zipf s = 1.5 over 64 regions in the bench's emulated regime (16 slots
   * on 2 cores, each click's reduce-side cost a park), stock then Hurricane in one cluster (the per-job switch), the
   * regime where one skewed partition holds back a stage: on 2 real slots 64 partitions hide the skew.
   */
  private def hurricaneRow(
      context: SuiteContext,
      progress: StepProgress,
      runId: String,
      clicks: Long
  ): Unit = {
    progress.begin(DemoSteps.HURRICANE)
    val topology = SparkTopology.LocalCluster(4, 4, 1536)
    val settings = HurricaneBenchSuite.Clusters("hurricane") +
      ("spark.levee.hurricane.chunk.targetBytes" -> "8k")
    val log = ClickLog(1.5, clicks, 256, 48000)
    val params = new util.LinkedHashMap[String, Object]()
    params.put(DemoTable.RUN_ID, runId)
    params.put(DemoTable.MODULE, "hurricane-spark")
    params.put(
      DemoTable.WORKLOAD,
      f"ClickLog, distinct IPs per region: $clicks%,d clicks, 64 regions, Zipf s = 1.5 " +
        f"(hottest region ${100 * log.hottestShare}%.0f%%)"
    )
    params.put(
      DemoTable.CONDITION,
      s"emulated compute: ${topology.master}, 16 slots on 2 cores, 48 us of reduce-side cost per click as a park"
    )
    context.err().println(s"demo-spark: hurricane: starting ${topology.master}")
    SparkCluster.using(topology, settings, "levee-demo-hurricane") { cluster =>
      val sc = cluster.sc
      ClickLog(0, clicks / 4, 256, 0).run(sc) // class loading and JIT, unmeasured
      var stock: Option[Map[Int, Int]] = None
      for (variant <- Seq(Measurement.STOCK, DemoTable.PLUGIN)) {
        sc.setLocalProperty("spark.levee.hurricane.enabled", (variant == DemoTable.PLUGIN).toString)
        val start = System.nanoTime()
        val answer = log.run(sc)
        val seconds = (System.nanoTime() - start) / 1e9
        val p = new util.LinkedHashMap[String, Object](params)
        stock match {
          case None                         => stock = Some(answer)
          case Some(want) if want == answer => p.put(DemoTable.SAME_OUTPUT, "yes")
          case Some(_)                      =>
            throw new IllegalStateException(
              "demo-spark: Hurricane's output differs from stock on the same clicks"
            )
        }
        context.record(variant, p, util.Map.of(DemoTable.SECONDS, Double.box(seconds)), 0)
        context.err().println(f"demo-spark: hurricane $variant%s job $seconds%.1f s")
      }
    }
  }

  private def generate(dir: Path, records: Long, context: SuiteContext): Path = {
    // Five-digit keys, short values: the paper's artificial dataset.
    val options = util.Map.of("keys", "90000", "value-size", "fixed:12")
    val plan = new DatasetWriter.Plan(dir.toUri.toString, records, 4, 2, true)
    val progress = context.progress("generate groupBy input", records, "records")
    try {
      new DatasetWriter(new Configuration()).write(
        "uniform",
        7,
        Datasets.builtIn().configure("uniform", 7, options),
        options,
        plan,
        progress
      )
    } finally progress.close()
    dir
  }
}

object SparkDemoSuite {

  /** The suite's options. */
  final class Options {
    @(Flag @field)(
      names = Array("--run-id"),
      required = true,
      paramLabel = "ID",
      description = Array("groups this run's rows in the demo table")
    )
    var runId: String = _

    @(Flag @field)(
      names = Array("--records"),
      paramLabel = "N",
      description = Array("key/value records grouped")
    )
    @(Bounds @field)(min = 1)
    var records: Long = 3000000L

    @(Flag @field)(
      names = Array("--reduce-tasks"),
      paramLabel = "N",
      description = Array("reduce tasks (the DMR's denominator)")
    )
    @(Bounds @field)(min = 1, max = 10000)
    var reduceTasks: Int = 4

    @(Flag @field)(
      names = Array("--repetitions"),
      paramLabel = "N",
      description = Array("runs of each variant")
    )
    @(Bounds @field)(min = 1, max = 100)
    var repetitions: Int = 1

    @(Flag @field)(
      names = Array("--hurricane-clicks"),
      paramLabel = "N",
      description = Array("clicks in Hurricane's ClickLog row")
    )
    @(Bounds @field)(min = 1000)
    var hurricaneClicks: Long = 1000000L
  }
}
