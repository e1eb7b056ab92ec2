package dev.levee.leaky

import scala.jdk.CollectionConverters._

import dev.levee.config.ConfigException
import org.apache.logging.log4j.Level
import org.apache.logging.log4j.core.{LogEvent, LoggerContext}
import org.apache.logging.log4j.core.appender.AbstractAppender
import org.apache.spark.SparkConf
import org.scalatest.funsuite.AnyFunSuite

class LeakyConfSuite extends AnyFunSuite {

  test("defaults are the registry's documented values") {
    val c = LeakyConf(new SparkConf(false))
    assert(c.enabled)
    assert(c.delegateShuffleManager == LeakyConf.DefaultDelegate)
    assert(c.pageSize == dev.levee.leaky.memory.PageSizing.auto())
    assert(c.maxRunSegment == 64 << 10)
    assert(c.layout == LeakyConf.AutoLayout)
    assert(c.initialMemoryThreshold == 5L << 20)
    assert(c.spillFileBuffer == 32 << 10)
    assert(c.maxHeapFraction == 0.3)
    assert(c.maxLiveFraction == 0.7)
    assert(c.aggregation == LeakyConf.AutoAggregation)
    assert(c.arrivalHeapFraction == 0.2)
    assert(c.pagePool)
    assert(c.mapSideGrouping && c.mapSideGroupingMemory == (16L << 20))
    assert(
      !LeakyConf(
        new SparkConf(false).set(LeakyConf.MapSideGroupingKey.name, "false")
      ).mapSideGrouping
    )
    val tiny = intercept[ConfigException] {
      LeakyConf(new SparkConf(false).set(LeakyConf.MapSideGroupingMemory.name, "1k"))
    }
    assert(
      tiny.getMessage.contains(LeakyConf.MapSideGroupingMemory.name) && tiny.getMessage.contains(
        "1k"
      )
    )
    assert(!LeakyConf(new SparkConf(false).set(LeakyConf.PagePoolKey.name, "false")).pagePool)
    assert(
      LeakyConf(new SparkConf(false).set(LeakyConf.Aggregation.name, "TABLE")).aggregation ==
        LeakyConf.TableAggregation
    )
    // Every key is registered with a doc and a version, and the registry's defaults parse.
    val keys = LeakyConf.REGISTRY.keys().asScala
    assert(keys.size == 15 && keys.forall(k => k.name.startsWith(LeakyConf.Prefix)))
    assert(keys.forall(k => k.since == "0.1.0" && k.doc.nonEmpty && k.defaultValue != null))
  }

  test("auto pages stay below half a G1 region, where larger arrays become humongous") {
    import dev.levee.leaky.memory.PageSizing
    assert(PageSizing.forRegion(1L << 20) == (1 << 19) - 64) // a 64 MB heap's regions
    assert(PageSizing.forRegion(2L << 20) < (1 << 20))
    assert(PageSizing.forRegion(4L << 20) == PageSizing.DefaultBytes)
    assert(PageSizing.forRegion(32L << 20) == PageSizing.DefaultBytes)
    assert(
      LeakyConf(new SparkConf(false).set(LeakyConf.PageSize.name, "AUTO")).pageSize ==
        PageSizing.auto()
    )
  }

  test("short delegate names map to SortShuffleManager; sizes parse") {
    val c = LeakyConf(
      new SparkConf(false)
        .set(LeakyConf.Delegate.name, "sort")
        .set(LeakyConf.PageSize.name, "64k")
        .set(LeakyConf.MaxRunSegment.name, "4kb")
        .set(LeakyConf.LayoutKey.name, "JOIN")
    )
    assert(c.delegateShuffleManager == LeakyConf.DefaultDelegate)
    assert(c.pageSize == 65536 && c.maxRunSegment == 4096 && c.layout == LeakyConf.JoinLayout)
  }

  private def rejected(key: String, value: String): ConfigException =
    intercept[ConfigException](LeakyConf(new SparkConf(false).set(key, value)))

  test("bad values fail fast naming key, value and what is allowed") {
    def check(key: String, value: String, allowed: String*): Unit = {
      val e = rejected(key, value)
      assert(e.key == key && e.value == value.trim, e.getMessage)
      assert(e.getMessage.contains(key) && e.getMessage.contains(s"'${value.trim}'"), e.getMessage)
      allowed.foreach(a => assert(e.getMessage.contains(a), e.getMessage))
    }
    check(LeakyConf.PageSize.name, "2g", "auto", "between 4k and 1g")
    check(LeakyConf.PageSize.name, "lots", "byte size")
    check(LeakyConf.MaxRunSegment.name, "2m", "page size") // larger than the 1m page
    check(LeakyConf.LayoutKey.name, "tree", "auto | group | join")
    check(LeakyConf.Enabled.name, "yes", "true or false")
    check(LeakyConf.Delegate.name, " ", "ShuffleManager class name")
    check(LeakyConf.Delegate.name, "not a class", "ShuffleManager class name")
    check(LeakyConf.SpillFileBuffer.name, "512", "between 1k and 64m")
    check(LeakyConf.Aggregation.name, "always", "auto | table")
    check(LeakyConf.ArrivalHeapFraction.name, "1.5", "[0.01, 1]")
    check(LeakyConf.ArrivalHeapFraction.name, "-0.1", "[0.01, 1]")
    for (
      key <- Seq(LeakyConf.MaxHeapFraction.name, LeakyConf.MaxLiveFraction.name);
      bad <- Seq("0", "1.5", "half")
    ) check(key, bad, ", 1]") // the lower bound is the next test's
  }

  test("degenerate heap shares are refused with the allowed range; every share key is checked") {
    def check(key: String, value: String, allowed: String): Unit = {
      val e = rejected(key, value)
      assert(e.key == key && e.getMessage.contains(allowed), e.getMessage)
    }
    for (bad <- Seq("1e-300", "4.9e-324", "0.001", "NaN", "Infinity", "-0.5")) {
      check(LeakyConf.MaxHeapFraction.name, bad, "[0.01, 1]")
      check(LeakyConf.MaxLiveFraction.name, bad, "[0.1, 1]")
      check(LeakyConf.ArrivalHeapFraction.name, bad, "0, or a number in [0.01, 1]")
    }
    check(LeakyConf.MaxLiveFraction.name, "0.05", "[0.1, 1]")
    def conf(key: String, value: String) = LeakyConf(new SparkConf(false).set(key, value))
    assert(conf(LeakyConf.MaxHeapFraction.name, "0.01").maxHeapFraction == 0.01)
    assert(conf(LeakyConf.MaxLiveFraction.name, "0.1").maxLiveFraction == 0.1)
    assert(conf(LeakyConf.ArrivalHeapFraction.name, "0").arrivalHeapFraction == 0.0)
    assert(conf(LeakyConf.ArrivalHeapFraction.name, "0.01").arrivalHeapFraction == 0.01)
  }

  test("a size that overflows a long fails naming the key, not with Spark's raw message") {
    for (key <- Seq(LeakyConf.InitialThreshold.name, LeakyConf.PageSize.name)) {
      val e = rejected(key, "9000000000000000000k")
      assert(e.key == key && e.getMessage.contains(key) && e.getMessage.contains("byte size"))
    }
  }

  test("an unknown key under the prefix is a WARN naming the nearest known key, once per JVM") {
    val warnings = LogCapture.warnings(LeakyConf.getClass.getName.stripSuffix("$")) {
      val conf = new SparkConf(false)
        .set("spark.levee.leaky.memory.maxHeapFractoin", "0.2")
        .set("spark.levee.leaky.nothingLikeAnyKeyAtAll.really", "1")
        .set("spark.executor.memory", "1g") // not ours: never reported
      LeakyConf(conf)
      LeakyConf(conf)
    }
    val typo = warnings.filter(_.contains("maxHeapFractoin"))
    assert(typo.size == 1, warnings)
    assert(typo.head.contains("did you mean spark.levee.leaky.memory.maxHeapFraction?"))
    assert(warnings.count(_.contains("nothingLikeAnyKeyAtAll")) == 1, warnings)
    assert(!warnings.exists(_.contains("spark.executor.memory")), warnings)
  }

  test("the shuffle manager rejects a missing or self-referencing delegate by name") {
    import org.apache.spark.shuffle.levee.LeakyShuffleManager
    val missing = intercept[ConfigException](
      new LeakyShuffleManager(
        new SparkConf(false).set(LeakyConf.Delegate.name, "com.example.NoSuchManager"),
        true
      )
    )
    assert(missing.key == LeakyConf.Delegate.name && missing.value == "com.example.NoSuchManager")
    assert(missing.getMessage.contains("class not found"))
    val self = intercept[ConfigException](
      new LeakyShuffleManager(
        new SparkConf(false).set(LeakyConf.Delegate.name, classOf[LeakyShuffleManager].getName),
        true
      )
    )
    assert(self.getMessage.contains("other ShuffleManager than the leaky one"))
  }
}

/** Messages logged at WARN by one logger while `body` runs. */
object LogCapture {
  def warnings(loggerName: String)(body: => Unit): Seq[String] = {
    val seen = new java.util.concurrent.ConcurrentLinkedQueue[String]()
    val appender = new AbstractAppender("leaky-test-capture", null, null, true, null) {
      override def append(event: LogEvent): Unit =
        if (event.getLevel == Level.WARN) seen.add(event.getMessage.getFormattedMessage)
    }
    appender.start()
    val logger = LoggerContext.getContext(false).getLogger(loggerName)
    logger.addAppender(appender)
    try body
    finally { logger.removeAppender(appender); appender.stop() }
    seen.asScala.toSeq
  }
}
