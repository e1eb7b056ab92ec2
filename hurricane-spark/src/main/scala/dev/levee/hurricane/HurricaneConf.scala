package dev.levee.hurricane

import scala.jdk.CollectionConverters._

import dev.levee.config.{ConfigKey, ConfigRegistry, ConfigSource, SparkShuffleKeys, ValueTypes}
import dev.levee.hurricane.core.ClonePolicy
import org.apache.spark.SparkConf
import org.apache.spark.internal.Logging

/**
 * Every `spark.levee.hurricane.*` setting, read once through the module's typed registry
 * ([[HurricaneConf.REGISTRY]]). A value the registry rejects fails at start-up with the key, the value and what
 * is allowed; an unknown key under the prefix is logged once with the nearest known key.
 */
final case class HurricaneConf(
    enabled: Boolean,
    mode: HurricaneConf.Mode,
    delegateShuffleManager: String,
    chunkTargetBytes: Long,
    window: Int,
    cloneIntervalMillis: Long,
    ioFactor: Double,
    launchCostMillis: Long,
    readBytesPerSecond: Double,
    maxWorkersPerPartition: Int,
    requireIdleSlot: Boolean,
    mergeCost: Double,
    staticSkewFactor: Double,
    staticThresholdBytes: Long,
    joinBuildMaxBytes: Long
) {

  /** Eq. 4.1 with these settings; `slots` bounds the workers when no cap is set. */
  def clonePolicy(slots: Int): ClonePolicy =
    ClonePolicy(
      ioFactor,
      launchCostMillis / 1000.0,
      if (maxWorkersPerPartition > 0) maxWorkersPerPartition else math.max(1, slots),
      mergeCost
    )
}

object HurricaneConf extends Logging {
  sealed abstract class Mode(val name: String)

  /** Clones at run time by Eq. 4.1 (and static seeding when a partition is far above the median). */
  case object Dynamic extends Mode("dynamic")

  /** Clones only from map-output sizes, when the chunk plan is made. */
  case object Static extends Mode("static")

  /** Late binding only: one worker per partition, as stock, through the coordinator. */
  case object Off extends Mode("off")
  private val modes = Seq(Dynamic, Static, Off)

  val Prefix = "spark.levee.hurricane."
  val DefaultDelegate: String = SparkShuffleKeys.SPARK_SORT
  private val Since = "0.1.0"

  private val B = ConfigRegistry.builder("hurricane", Prefix)

  val Enabled: ConfigKey[java.lang.Boolean] = SparkShuffleKeys.enabled(B, Prefix)

  val ModeKey: ConfigKey[String] = B
    .key(Prefix + "mode", ValueTypes.choice(modes.map(_.name): _*))
    .defaultValue("dynamic")
    .doc(
      "`dynamic`: clones start at run time while a slot is idle and Eq. 4.1 says a clone pays, besides the " +
        "static seeding of partitions far above the median of the map-output sizes (`static.*`); `static`: that " +
        "seeding only; `off`: late binding without clones."
    )
    .since(Since)
    .build()

  val Delegate: ConfigKey[String] = SparkShuffleKeys.delegate(
    B,
    Prefix,
    "The shuffle manager that writes map output and reads each chunk; `sort` names Spark's own, " +
      "`org.apache.spark.shuffle.levee.LeakyShuffleManager` stacks Hurricane on the leaky buffer."
  )

  val ChunkTargetBytes: ConfigKey[java.lang.Long] = B
    .key(Prefix + "chunk.targetBytes", ValueTypes.bytes(1L << 10, 1L << 34))
    .defaultValue("4m")
    .doc(
      "About this many bytes of a partition's map output per chunk (a contiguous map-index range; one map output " +
        "is never split). The thesis's chunk size."
    )
    .since(Since)
    .build()

  val Window: ConfigKey[Integer] = B
    .key(Prefix + "window", ValueTypes.ints(1, 10000))
    .defaultValue("10")
    .doc(
      "Chunks granted per coordinator round trip (the thesis's batch-sampling window, ΦK = 10); one round trip " +
        "took a median of 1-2 ms on local-cluster, so 10 chunks of 4 MB make it negligible."
    )
    .since(Since)
    .build()

  val CloneInterval: ConfigKey[java.lang.Long] = B
    .key(Prefix + "clone.intervalMs", ValueTypes.longs(10, 3600000))
    .defaultValue("2000")
    .doc(
      "Milliseconds between two clone decisions for the same partition (the thesis: at least 2 s)."
    )
    .since(Since)
    .build()

  val IoFactor: ConfigKey[java.lang.Double] = B
    .key(Prefix + "clone.ioFactor", ValueTypes.decimal(0, true, 100, true))
    .defaultValue("2.0")
    .doc(
      "T_IO counts each byte a clone will read this many times (the thesis: 2, its input and its output)."
    )
    .since(Since)
    .build()

  val LaunchCost: ConfigKey[java.lang.Long] = B
    .key(Prefix + "clone.launchCostMs", ValueTypes.longs(0, 600000))
    .defaultValue("250")
    .doc(
      "Fixed milliseconds a clone costs before it reads (a one-task job over a finished shuffle: median 190-245 " +
        "ms on local-cluster), added to T_IO."
    )
    .since(Since)
    .build()

  val ReadRate: ConfigKey[java.lang.Long] = B
    .key(Prefix + "clone.readBytesPerSecond", ValueTypes.bytes(1L << 10, 1L << 40))
    .defaultValue("100m")
    .doc(
      "Bytes per second a clone is assumed to fetch its share at, for T_IO (about a 1 Gbit/s link). Processing " +
        "speed needs no setting: the coordinator measures how fast each bag drains."
    )
    .since(Since)
    .build()

  val MaxWorkers: ConfigKey[Integer] = B
    .key(Prefix + "clone.maxWorkersPerPartition", ValueTypes.ints(0, 100000))
    .defaultValue("0")
    .doc(
      "At most this many workers (owner and clones) per partition; `0`: the executors' total slots."
    )
    .since(Since)
    .build()

  val RequireIdleSlot: ConfigKey[java.lang.Boolean] = B
    .key(Prefix + "clone.requireIdleSlot", ValueTypes.bool())
    .defaultValue("true")
    .doc(
      "Start a clone only while an executor slot is idle, so a clone never queues behind the stage's own tasks; " +
        "`false` is for tests that force clones."
    )
    .since(Since)
    .build()

  val MergeCost: ConfigKey[java.lang.Double] = B
    .key(Prefix + "clone.mergeCost", ValueTypes.decimal(0, true, 100, true))
    .defaultValue("1.0")
    .doc(
      "An aggregation's owner merges its clones' partials key by key, serially: this is the seconds that merge " +
        "spends per partial key, relative to the seconds a worker spends per record it reads. Each worker reports " +
        "its distinct keys per record (estimated in 512 bytes), and a clone starts only if Eq. 4.1 still holds " +
        "with the merge it adds counted beside T_IO; counts, sums and bitsets, with few keys, clone as before, " +
        "while an aggregation whose keys are mostly distinct is left alone. `0` weighs no merge (the thesis's " +
        "rule): such aggregations then get clones, and each worker spills only for its share, at a cost in time."
    )
    .since(Since)
    .build()

  val StaticSkewFactor: ConfigKey[java.lang.Double] = B
    .key(Prefix + "static.skewFactor", ValueTypes.decimal(1, true, 1e6, true))
    .defaultValue("5.0")
    .doc(
      "Static seeding: a partition larger than this many times the median (and the threshold) gets clones at once."
    )
    .since(Since)
    .build()

  val StaticThreshold: ConfigKey[java.lang.Long] = B
    .key(Prefix + "static.thresholdBytes", ValueTypes.bytes(0, 1L << 50))
    .defaultValue("64m")
    .doc("Static seeding: no partition smaller than this gets clones from its size alone.")
    .since(Since)
    .build()

  val JoinBuildMax: ConfigKey[java.lang.Long] = B
    .key(Prefix + "join.buildMaxBytes", ValueTypes.bytes(0, 1L << 40))
    .defaultValue("128m")
    .doc(
      "`hurricaneJoin`: every worker of a partition (owner and clones) holds the build side's partition in a hash " +
        "table; a table whose estimated heap size grows past this fails the task with a message instead of " +
        "running the executor out of memory. `0`: no limit."
    )
    .since(Since)
    .build()

  /** Every key of the module; the README's configuration table is generated from it. */
  val REGISTRY: ConfigRegistry = B.build()

  /** The settings `conf` holds, validated; unknown keys under the prefix are logged once per JVM. */
  def apply(conf: SparkConf): HurricaneConf = {
    val source = sourceOf(conf)
    REGISTRY.validate(source, (m: String) => logWarning(m))
    HurricaneConf(
      enabled = Enabled.from(source),
      mode = modes.find(_.name == ModeKey.from(source)).get,
      delegateShuffleManager = Delegate.from(source),
      chunkTargetBytes = ChunkTargetBytes.from(source),
      window = Window.from(source),
      cloneIntervalMillis = CloneInterval.from(source),
      ioFactor = IoFactor.from(source),
      launchCostMillis = LaunchCost.from(source),
      readBytesPerSecond = ReadRate.from(source).toDouble,
      maxWorkersPerPartition = MaxWorkers.from(source),
      requireIdleSlot = RequireIdleSlot.from(source),
      mergeCost = MergeCost.from(source),
      staticSkewFactor = StaticSkewFactor.from(source),
      staticThresholdBytes = StaticThreshold.from(source),
      joinBuildMaxBytes = JoinBuildMax.from(source)
    )
  }

  def sourceOf(conf: SparkConf): ConfigSource = ConfigSource.of(conf.getAll.toMap.asJava)
}
