package dev.levee.leaky

import scala.jdk.CollectionConverters._

import org.apache.spark.SparkConf

/**
 * The `spark.levee.leaky.*` key names and a validity check, in plain types, for code outside this module.
 *
 * Why not [[LeakyConf]]'s typed keys: the published jar carries the config registry relocated, and shading rewrites
 * class files but not the Scala signatures beside them, which still name the unrelocated registry types. Scala code
 * compiled against the jar (Levee's own bench and integration tests) must therefore see only plain types here.
 */
object LeakyKeys {
  val Prefix: String = LeakyConf.Prefix
  val Enabled: String = LeakyConf.Enabled.name
  val Delegate: String = LeakyConf.Delegate.name
  val PageSize: String = LeakyConf.PageSize.name
  val MaxRunSegment: String = LeakyConf.MaxRunSegment.name
  val Layout: String = LeakyConf.LayoutKey.name
  val InitialThreshold: String = LeakyConf.InitialThreshold.name
  val SpillFileBuffer: String = LeakyConf.SpillFileBuffer.name
  val MaxHeapFraction: String = LeakyConf.MaxHeapFraction.name
  val MaxLiveFraction: String = LeakyConf.MaxLiveFraction.name
  val Aggregation: String = LeakyConf.Aggregation.name
  val JoinSpoolMemory: String = LeakyConf.JoinSpoolMemory.name

  /** Every registered key name, in the README's order. */
  def all: Seq[String] = LeakyConf.REGISTRY.keys().asScala.map(_.name).toSeq

  /**
   * Checks `settings` as a job would see them: an unknown key under the prefix or a value the registry rejects
   * throws IllegalArgumentException naming the key, the value and what is allowed (or the nearest known key).
   */
  def check(settings: Map[String, String]): Unit = {
    val conf = new SparkConf(false).setAll(settings)
    LeakyConf.REGISTRY.unknownKeys(LeakyConf.sourceOf(conf)).asScala.headOption.foreach { u =>
      throw new IllegalArgumentException(u.message)
    }
    LeakyConf(conf)
  }
}
