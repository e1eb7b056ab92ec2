package dev.levee.leaky

import scala.jdk.CollectionConverters._

import dev.levee.config.{
  ConfigException,
  ConfigKey,
  ConfigRegistry,
  ConfigSource,
  SparkShuffleKeys,
  ValueType,
  ValueTypes
}
import dev.levee.leaky.memory.PageSizing
import org.apache.spark.SparkConf
import org.apache.spark.internal.Logging

/**
 * Every `spark.levee.leaky.*` setting, read once through the module's typed registry ([[LeakyConf.REGISTRY]]).
 * A value the registry rejects fails at start-up with the key, the value and what is allowed, not deep inside a
 * task; a key under the prefix that the registry does not know is logged as a WARN naming the nearest known key
 * (it is ignored, so a typo does not stop a job that would have run, but it is not silent either).
 */
final case class LeakyConf(
    enabled: Boolean,
    delegateShuffleManager: String,
    pageSize: Int,
    maxRunSegment: Int,
    layout: LeakyConf.Layout,
    initialMemoryThreshold: Long,
    spillFileBuffer: Int,
    maxHeapFraction: Double,
    maxLiveFraction: Double,
    aggregation: LeakyConf.AggregationMode = LeakyConf.AutoAggregation,
    joinSpoolMemory: Int = 2 << 20,
    arrivalHeapFraction: Double = 0.2,
    pagePool: Boolean = true,
    mapSideGrouping: Boolean = true,
    mapSideGroupingMemory: Long = 16L << 20
)

object LeakyConf extends Logging {
  sealed abstract class Layout(val name: String)

  /** groupBy layout for aggregations, join layout for join/cogroup. */
  case object AutoLayout extends Layout("auto")
  case object GroupLayout extends Layout("group")
  case object JoinLayout extends Layout("join")
  private val layouts = Seq(AutoLayout, GroupLayout, JoinLayout)

  sealed abstract class AggregationMode(val name: String)

  /** Growing combiners and aggregations without map-side combine in the table, scalar combiners on arrival. */
  case object AutoAggregation extends AggregationMode("auto")

  /** Every transparent aggregation in the table. */
  case object TableAggregation extends AggregationMode("table")
  private val aggregationModes = Seq(AutoAggregation, TableAggregation)

  val Prefix = "spark.levee.leaky."
  val DefaultDelegate: String = SparkShuffleKeys.SPARK_SORT
  private val Since = "0.1.0"

  private val B = ConfigRegistry.builder("leaky", Prefix)

  /**
   * Lower bounds of the heap shares. A share is multiplied by the heap, so a degenerate one (1e-300) parses as a
   * number in (0, 1] yet leaves the tables less than one page: every record would spill. 1% of a 100m heap is
   * one 1m page; the live share bounds Spark's own objects and the tables together, and those alone exceed 10%.
   */
  private val MinHeapShare = 0.01
  private val MinLiveShare = 0.1

  val Enabled: ConfigKey[java.lang.Boolean] = SparkShuffleKeys.enabled(B, Prefix)

  val Delegate: ConfigKey[String] = SparkShuffleKeys.delegate(
    B,
    Prefix,
    "The shuffle manager that writes map output, registers shuffles and resolves blocks; " +
      "`sort` and `tungsten-sort` name Spark's own."
  )

  val PageSize: ConfigKey[Option[java.lang.Long]] = B
    .key(Prefix + "pageSize", pageSizeType)
    .defaultValue("auto")
    .doc(
      "Memory page size; no array the table allocates is larger, except one page for a single larger value. " +
        "`auto` is 1m, or just under half a region under G1 (larger arrays are humongous objects there, each in " +
        "whole regions of its own)."
    )
    .since(Since)
    .build()

  val MaxRunSegment: ConfigKey[Integer] = B
    .key(Prefix + "run.maxSegmentSize", ValueTypes.intBytes(256, 1 << 30))
    .defaultValue("64k")
    .doc(
      "Per-key byte runs double from 64 bytes up to this size, then stay there; at most the page size."
    )
    .since(Since)
    .build()

  val LayoutKey: ConfigKey[String] = B
    .key(Prefix + "layout", ValueTypes.choice(layouts.map(_.name): _*))
    .defaultValue("auto")
    .doc(
      "How the table keeps values: `group` (one run per key, for aggregations), `join` (one shared area and " +
        "per-key record addresses, for join and cogroup), `auto` (each operator's own)."
    )
    .since(Since)
    .build()

  val InitialThreshold: ConfigKey[java.lang.Long] = B
    .key(Prefix + "spill.initialMemoryThreshold", ValueTypes.bytes(0, 1L << 40))
    .defaultValue("5m")
    .doc(
      "Bytes a table uses before it asks Spark for memory (the role of Spark's " +
        "`spark.shuffle.spill.initialMemoryThreshold`)."
    )
    .since(Since)
    .build()

  val SpillFileBuffer: ConfigKey[Integer] = B
    .key(Prefix + "spill.fileBufferSize", ValueTypes.intBytes(1 << 10, 64 << 20))
    .defaultValue("32k")
    .doc("Buffer of each spill file stream.")
    .since(Since)
    .build()

  val MaxHeapFraction: ConfigKey[java.lang.Double] = B
    .key(Prefix + "memory.maxHeapFraction", ValueTypes.decimal(MinHeapShare, true, 1, true))
    .defaultValue("0.3")
    .doc(
      "Share of the JVM heap all leaky tables of an executor may hold together beyond their initial threshold, " +
        "whatever Spark grants. At least 0.01: on a 100m heap that is one 1m page, and a smaller share (1e-300, " +
        "say) would leave the tables less than a page, so every record would spill."
    )
    .since(Since)
    .build()

  val MaxLiveFraction: ConfigKey[java.lang.Double] = B
    .key(Prefix + "memory.maxLiveFraction", ValueTypes.decimal(MinLiveShare, true, 1, true))
    .defaultValue("0.7")
    .doc(
      "Share of the old generation (the whole heap under G1) that Spark's live objects and the leaky tables may " +
        "fill together, as found after the latest full collection; past it the tables spill rather than grow. " +
        "`1` turns it off. At least 0.1: Spark's own live objects alone fill more than that, so a smaller share " +
        "would leave the tables no page at all and make every record spill."
    )
    .since(Since)
    .build()

  val PagePoolKey: ConfigKey[java.lang.Boolean] = B
    .key(Prefix + "memory.pagePool", ValueTypes.bool())
    .defaultValue("true")
    .doc(
      "A finished table hands its pages to the next table of the executor, held weakly (a full collection frees " +
        "idle ones), instead of leaving them to the collector as old-generation garbage; `false` allocates every " +
        "table's pages anew."
    )
    .since(Since)
    .build()

  val Aggregation: ConfigKey[String] = B
    .key(Prefix + "aggregation", ValueTypes.choice(aggregationModes.map(_.name): _*))
    .defaultValue("auto")
    .doc(
      "Which aggregations the shuffle manager takes over. `auto`: those without a map-side combine (groupByKey and " +
        "the like) and those whose combiners are collections, which grow with their values; scalar combiners " +
        "(reduceByKey's sums, countByKey, distinct) are combined on arrival by Spark's own map, as without Levee, " +
        "because they hold one small object per key. `table`: every aggregation."
    )
    .since(Since)
    .build()

  val ArrivalHeapFraction: ConfigKey[java.lang.Double] = B
    .key(Prefix + "aggregation.arrivalHeapFraction", arrivalShareType)
    .defaultValue("0.2")
    .doc(
      "Under `auto`, a map-side-combined aggregation whose combiners are collections (aggregateByKey into a set, " +
        "say) merges them on arrival in Spark's own map, as without Levee, until they hold this share of the JVM " +
        "heap as objects or Spark grants no more memory; then they move into a leaky table, serialized. `0` sends " +
        "them to the table from the first record; `1` leaves only Spark's grant as the bound. Other than `0`, at " +
        "least 0.01: a smaller share (1e-300, say) is `0` in disguise."
    )
    .since(Since)
    .build()

  val JoinSpoolMemory: ConfigKey[Integer] = B
    .key(Prefix + "join.spoolMemory", ValueTypes.intBytes(0, 1 << 30))
    .defaultValue("2m")
    .doc(
      "Bytes of one side of one key a leaky join keeps in memory while it streams the key's pairs; the rest of a " +
        "larger side waits in a spill file, so a key of any size joins in bounded memory."
    )
    .since(Since)
    .build()

  val MapSideGroupingKey: ConfigKey[java.lang.Boolean] = B
    .key(Prefix + "mapSide.grouping", ValueTypes.bool())
    .defaultValue("true")
    .doc(
      "For a shuffle the leaky table reads without a map-side combine (groupByKey and the like), each map task " +
        "groups its output by key in a small table of its own and writes each key once with its values packed as " +
        "the table's bytes, so the reduce side looks each key up once per map instead of once per value and never " +
        "encodes a value again. A map task whose keys barely repeat stops grouping and packs each value alone. " +
        "Spark's shuffle metrics then count packs, not values. `false` writes every record as Spark does."
    )
    .since(Since)
    .build()

  val MapSideGroupingMemory: ConfigKey[java.lang.Long] = B
    .key(Prefix + "mapSide.grouping.memory", ValueTypes.bytes(64L << 10, 1L << 30))
    .defaultValue("16m")
    .doc(
      "Most a map task's grouping table holds (taken from the task's execution memory; less if Spark grants " +
        "less). When full, it writes out what it holds and starts again, so it never spills. At least two pages."
    )
    .since(Since)
    .build()

  /** Every key of the module; the README's configuration table is generated from it. */
  val REGISTRY: ConfigRegistry = B.build()

  /** The settings `conf` holds, validated; unknown keys under the prefix are logged once per JVM. */
  def apply(conf: SparkConf): LeakyConf = {
    val source = sourceOf(conf)
    REGISTRY.validate(source, (m: String) => logWarning(m))
    val page: Int = PageSize.from(source).fold(PageSizing.auto())(_.toInt)
    val segment: Int = MaxRunSegment.from(source)
    if (segment > page) {
      throw new ConfigException(
        MaxRunSegment.name,
        raw(source, MaxRunSegment),
        s"a byte size between 256 and the page size (${PageSize.name}, $page bytes here)"
      )
    }
    val grouping: Long = MapSideGroupingMemory.from(source)
    if (grouping < 2L * page) {
      throw new ConfigException(
        MapSideGroupingMemory.name,
        raw(source, MapSideGroupingMemory),
        s"a byte size of at least two pages (${PageSize.name}: $page bytes here) and at most 1g"
      )
    }
    LeakyConf(
      enabled = Enabled.from(source),
      delegateShuffleManager = Delegate.from(source),
      pageSize = page,
      maxRunSegment = segment,
      layout = layouts.find(_.name == LayoutKey.from(source)).get,
      initialMemoryThreshold = InitialThreshold.from(source),
      spillFileBuffer = SpillFileBuffer.from(source),
      maxHeapFraction = MaxHeapFraction.from(source),
      maxLiveFraction = MaxLiveFraction.from(source),
      aggregation = aggregationModes.find(_.name == Aggregation.from(source)).get,
      joinSpoolMemory = JoinSpoolMemory.from(source),
      arrivalHeapFraction = ArrivalHeapFraction.from(source),
      pagePool = PagePoolKey.from(source),
      mapSideGrouping = MapSideGroupingKey.from(source),
      mapSideGroupingMemory = grouping
    )
  }

  def sourceOf(conf: SparkConf): ConfigSource = ConfigSource.of(conf.getAll.toMap.asJava)

  private def raw(source: ConfigSource, key: ConfigKey[_]): String =
    Option(source.get(key.name)).getOrElse(key.defaultText).trim

  /** `0` (straight to the table), or a share no smaller than [[MinHeapShare]]. */
  private def arrivalShareType: ValueType[java.lang.Double] = {
    val share = ValueTypes.decimal(MinHeapShare, true, 1, true)
    ValueTypes.simple(
      "0, or " + share.allowed(),
      t => {
        val zero = scala.util.Try(t.toDouble).toOption.contains(0.0)
        if (zero) java.lang.Double.valueOf(0.0) else share.parse(t)
      }
    )
  }

  private def pageSizeType: ValueType[Option[java.lang.Long]] = {
    val bytes = ValueTypes.bytes(4L << 10, 1L << 30)
    ValueTypes.simple(
      "auto, or " + bytes.allowed(),
      t => if (t.equalsIgnoreCase("auto")) None else Some(bytes.parse(t))
    )
  }
}
