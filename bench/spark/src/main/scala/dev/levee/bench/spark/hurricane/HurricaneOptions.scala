package dev.levee.bench.spark.hurricane

import scala.annotation.meta.field
import scala.jdk.CollectionConverters._

import dev.levee.bench.cli.{Converters, Range => Bounds}
import picocli.CommandLine.Option

/** The options of the `hurricane` suite. */
final class HurricaneOptions {
  @(Option @field)(
    names = Array("--regime"),
    paramLabel = "R",
    description = Array("real | emulated | both")
  )
  var regime: String = "both"

  @(Option @field)(
    names = Array("--arms"),
    paramLabel = "LIST",
    completionCandidates = classOf[HurricaneOptions.ArmNames],
    description = Array("comma-separated, of: ${COMPLETION-CANDIDATES}")
  )
  var arms: String = "stock,dynamic"

  @(Option @field)(
    names = Array("--s-real"),
    paramLabel = "LIST",
    description = Array("Zipf exponents in the real-CPU regime")
  )
  var sReal: String = "0,1,2,3"

  @(Option @field)(
    names = Array("--s-emulated"),
    paramLabel = "LIST",
    description = Array("Zipf exponents in the emulated regime")
  )
  var sEmulated: String = "0,0.5,1,1.5"

  @(Option @field)(
    names = Array("--records"),
    paramLabel = "N",
    description = Array("clicks in the real-CPU regime")
  )
  @(Bounds @field)(min = 1000)
  var records: Long = 24000000L

  @(Option @field)(
    names = Array("--emulated-records"),
    paramLabel = "N",
    description = Array("clicks in the emulated regime")
  )
  @(Bounds @field)(min = 1000)
  var emulatedRecords: Long = 2000000L

  @(Option @field)(
    names = Array("--park-ns"),
    paramLabel = "NS",
    description = Array("emulated reduce-side cost per click, in nanoseconds")
  )
  @(Bounds @field)(min = 0)
  var parkNs: Long = 48000L

  @(Option @field)(
    names = Array("--chunk-real"),
    paramLabel = "BYTES",
    converter = Array(classOf[Converters.ByteSize]),
    defaultValue = "4m",
    description = Array(
      "chunk size (spark.levee.hurricane.chunk.targetBytes) in the real-CPU regime: the module's default"
    )
  )
  @(Bounds @field)(min = 1024)
  var chunkReal: Long = _

  @(Option @field)(
    names = Array("--chunk-emulated"),
    paramLabel = "BYTES",
    converter = Array(classOf[Converters.ByteSize]),
    defaultValue = "8k",
    description = Array("chunk size in the emulated regime")
  )
  @(Bounds @field)(min = 1024)
  var chunkEmulated: Long = _

  @(Option @field)(
    names = Array("--workload"),
    paramLabel = "W",
    description = Array(
      "clicklog (the thesis's aggregation) | join (a skewed join against the Dataset path) | both"
    )
  )
  var workload: String = "clicklog"

  @(Option @field)(
    names = Array("--join-arms"),
    paramLabel = "LIST",
    completionCandidates = classOf[HurricaneOptions.JoinArmNames],
    description = Array("comma-separated, of: ${COMPLETION-CANDIDATES}")
  )
  var joinArms: String = "stock,hurricane-join,hurricane,dataset-aqe,dataset-broadcast"

  @(Option @field)(
    names = Array("--join-s-real"),
    paramLabel = "LIST",
    description = Array("Zipf exponents of the join in the real-CPU regime")
  )
  var joinSReal: String = "0,1,3"

  @(Option @field)(
    names = Array("--join-s-emulated"),
    paramLabel = "LIST",
    description = Array("Zipf exponents of the join in the emulated regime")
  )
  var joinSEmulated: String = "0,1"

  @(Option @field)(
    names = Array("--join-records"),
    paramLabel = "N",
    description = Array("probe rows of the join in the real-CPU regime")
  )
  @(Bounds @field)(min = 1000)
  var joinRecords: Long = 4000000L

  @(Option @field)(
    names = Array("--join-emulated-records"),
    paramLabel = "N",
    description = Array("probe rows of the join in the emulated regime")
  )
  @(Bounds @field)(min = 1000)
  var joinEmulatedRecords: Long = 1000000L

  @(Option @field)(
    names = Array("--join-rows-per-key"),
    paramLabel = "N",
    description = Array("build rows per key (each probe row joins this many)")
  )
  @(Bounds @field)(min = 1, max = 10000)
  var joinRowsPerKey: Int = 8

  @(Option @field)(
    names = Array("--join-park-ns"),
    paramLabel = "NS",
    description = Array("emulated work per joined pair in the emulated regime, in nanoseconds")
  )
  @(Bounds @field)(min = 0)
  var joinParkNs: Long = 8000L

  @(Option @field)(
    names = Array("--clicklog-shape"),
    paramLabel = "SHAPE",
    description = Array(
      "bitset (the thesis's: a distinct-IP bitset per region) | pairs (the distinct (region, IP) pairs, a wide" +
        " aggregation whose hot partition spills at a tight executor memory; its own regime and table)"
    )
  )
  var clicklogShape: String = "bitset"

  @(Option @field)(
    names = Array("--ip-bits"),
    paramLabel = "N",
    description = Array(
      "with --clicklog-shape pairs: clicks' IPs come from 2^N addresses (22: a region's IPs recur, so a clone's" +
        " share of the pairs is nearly all of them; 26: nearly every click is a new pair, so shares split the pairs)"
    )
  )
  @(Bounds @field)(min = 8, max = 30)
  var ipBits: Int = 22

  @(Option @field)(
    names = Array("--executor-mb"),
    paramLabel = "MB",
    description = Array(
      "spark.executor.memory of the real-CPU regime's two executors (ClickLog's; another value makes its own regime)"
    )
  )
  @(Bounds @field)(min = 384, max = 16384)
  var executorMb: Int = 1024

  @(Option @field)(
    names = Array("--reps"),
    paramLabel = "N",
    description = Array("repetitions of every point (medians are reported)")
  )
  @(Bounds @field)(min = 1, max = 50)
  var reps: Int = 3

  @(Option @field)(
    names = Array("--figures"),
    description = Array(
      "no runs: the tables and figures from the results file, each point (arm, regime, s) from the newest run that" +
        " measured it"
    )
  )
  var figures: Boolean = false
}

object HurricaneOptions {

  /** The ClickLog arms, for the help. */
  final class ArmNames extends java.lang.Iterable[String] {
    override def iterator(): java.util.Iterator[String] =
      HurricaneBenchSuite.Arms.keys.toSeq.sorted.iterator.asJava
  }

  /** The join's arms, for the help. */
  final class JoinArmNames extends java.lang.Iterable[String] {
    override def iterator(): java.util.Iterator[String] =
      JoinBench.Arms.keys.toSeq.sorted.iterator.asJava
  }
}
