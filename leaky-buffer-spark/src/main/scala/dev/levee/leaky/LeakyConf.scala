package dev.levee.leaky

import java.util.Locale

import dev.levee.leaky.memory.PageSizing
import org.apache.spark.SparkConf
import org.apache.spark.network.util.JavaUtils

/**
 * Every `spark.levee.leaky.*` setting, parsed once and validated up front so that a typo fails
 * the job at start-up with the key, the value and what is allowed, not deep inside a task.
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
    maxLiveFraction: Double
)

object LeakyConf {
  sealed abstract class Layout(val name: String)

  /** groupBy layout for aggregations, join layout for join/cogroup. */
  case object AutoLayout extends Layout("auto")
  case object GroupLayout extends Layout("group")
  case object JoinLayout extends Layout("join")
  private val layouts = Seq(AutoLayout, GroupLayout, JoinLayout)

  val Prefix = "spark.levee.leaky."

  /** Aggregate shuffle reads in the leaky table; false makes the shuffle manager a pure proxy. */
  val Enabled = Prefix + "enabled"

  /** Shuffle manager that does the map-side writes and bookkeeping. */
  val Delegate = Prefix + "shuffle.delegate"

  /** Size of one memory page; no array the table allocates is larger (except one huge value).
   *  `auto`: 1m, or just under half a G1 region (dev.levee.leaky.memory.PageSizing). */
  val PageSize = Prefix + "pageSize"

  /** Per-key byte runs grow by doubling from 64 bytes up to this size, then stay there. */
  val MaxRunSegment = Prefix + "run.maxSegmentSize"

  /** auto | group | join: which layout the table uses. */
  val LayoutKey = Prefix + "layout"

  /** Memory the table may use before it asks Spark for more (same role as Spark's own
   *  spark.shuffle.spill.initialMemoryThreshold). */
  val InitialThreshold = Prefix + "spill.initialMemoryThreshold"

  /** Buffer size of spill file streams. */
  val SpillFileBuffer = Prefix + "spill.fileBufferSize"

  /** Share of the JVM heap that all leaky tables of an executor may hold together, whatever
   *  Spark's memory manager grants (see dev.levee.leaky.memory.HeapBudget). */
  val MaxHeapFraction = Prefix + "memory.maxHeapFraction"

  /** Share of the old generation (the whole heap under G1) that Spark's live objects and the leaky tables may fill
   *  together, as found after the latest full collection; past it the tables spill rather than grow. 1 turns it off
   *  (see dev.levee.leaky.memory.LiveHeapCeiling). */
  val MaxLiveFraction = Prefix + "memory.maxLiveFraction"

  val DefaultDelegate = "org.apache.spark.shuffle.sort.SortShuffleManager"
  val Defaults: Map[String, String] = Map(
    Enabled -> "true",
    Delegate -> DefaultDelegate,
    PageSize -> "auto",
    MaxRunSegment -> "64k",
    LayoutKey -> "auto",
    InitialThreshold -> "5m",
    SpillFileBuffer -> "32k",
    MaxHeapFraction -> "0.3",
    MaxLiveFraction -> "0.7"
  )

  private val MinPage = 4L * 1024
  private val MaxPage = 1L << 30

  def apply(conf: SparkConf): LeakyConf = {
    def str(key: String) = conf.get(key, Defaults(key)).trim
    def bytes(key: String, min: Long, max: Long): Long = {
      val raw = str(key)
      val v =
        try JavaUtils.byteStringAsBytes(raw)
        catch {
          case e: NumberFormatException =>
            throw bad(key, raw, s"a byte size such as 64k, 1m or 1g (${e.getMessage})")
        }
      if (v < min || v > max) throw bad(key, raw, s"a byte size between $min and $max bytes")
      v
    }
    val enabledRaw = str(Enabled).toLowerCase(Locale.ROOT)
    val enabled = enabledRaw match {
      case "true"  => true
      case "false" => false
      case _       => throw bad(Enabled, enabledRaw, "true or false")
    }
    val delegate = str(Delegate) match {
      case "" => throw bad(Delegate, "", "a ShuffleManager class name, 'sort' or 'tungsten-sort'")
      case "sort" | "tungsten-sort" => DefaultDelegate
      case name                     => name
    }
    val page =
      if (str(PageSize).equalsIgnoreCase("auto")) PageSizing.auto()
      else bytes(PageSize, MinPage, MaxPage).toInt
    val seg = bytes(MaxRunSegment, 256, page.toLong).toInt
    val layoutRaw = str(LayoutKey).toLowerCase(Locale.ROOT)
    val layout = layouts
      .find(_.name == layoutRaw)
      .getOrElse(throw bad(LayoutKey, layoutRaw, layouts.map(_.name).mkString(" | ")))
    val threshold = bytes(InitialThreshold, 0, Long.MaxValue)
    val buffer = bytes(SpillFileBuffer, 1024, 64L << 20).toInt
    def fraction(key: String, of: String): Double = {
      val raw = str(key)
      raw.toDoubleOption
        .filter(f => f > 0 && f <= 1)
        .getOrElse(throw bad(key, raw, s"a fraction of $of in (0, 1], such as ${Defaults(key)}"))
    }
    LeakyConf(
      enabled,
      delegate,
      page,
      seg,
      layout,
      threshold,
      buffer,
      fraction(MaxHeapFraction, "the heap"),
      fraction(MaxLiveFraction, "the old generation")
    )
  }

  private def bad(key: String, value: String, allowed: String) =
    new IllegalArgumentException(s"Invalid value '$value' for $key: expected $allowed")
}
