package dev.levee.leaky

import org.apache.spark.SparkConf
import org.scalatest.funsuite.AnyFunSuite

class LeakyConfSuite extends AnyFunSuite {

  test("defaults are documented values") {
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
  }

  test("auto pages stay below half a G1 region, where larger arrays become humongous") {
    import dev.levee.leaky.memory.PageSizing
    assert(PageSizing.forRegion(1L << 20) == (1 << 19) - 64) // a 64 MB heap's regions
    assert(PageSizing.forRegion(2L << 20) < (1 << 20))
    assert(PageSizing.forRegion(4L << 20) == PageSizing.DefaultBytes)
    assert(PageSizing.forRegion(32L << 20) == PageSizing.DefaultBytes)
    assert(
      LeakyConf(new SparkConf(false).set(LeakyConf.PageSize, "AUTO")).pageSize == PageSizing.auto()
    )
  }

  test("short delegate names map to SortShuffleManager; sizes parse") {
    val c = LeakyConf(
      new SparkConf(false)
        .set(LeakyConf.Delegate, "sort")
        .set(LeakyConf.PageSize, "64k")
        .set(LeakyConf.MaxRunSegment, "4k")
        .set(LeakyConf.LayoutKey, "JOIN")
    )
    assert(c.delegateShuffleManager == LeakyConf.DefaultDelegate)
    assert(c.pageSize == 65536 && c.maxRunSegment == 4096 && c.layout == LeakyConf.JoinLayout)
  }

  private def rejected(key: String, value: String): String =
    intercept[IllegalArgumentException](LeakyConf(new SparkConf(false).set(key, value))).getMessage

  test("bad values fail fast naming key, value and what is allowed") {
    val m1 = rejected(LeakyConf.PageSize, "2g")
    assert(m1.contains(LeakyConf.PageSize) && m1.contains("'2g'") && m1.contains("between"))
    val m2 = rejected(LeakyConf.PageSize, "lots")
    assert(m2.contains("'lots'") && m2.contains("byte size"))
    val m3 = rejected(LeakyConf.MaxRunSegment, "2m") // larger than the 1m page
    assert(m3.contains(LeakyConf.MaxRunSegment))
    val m4 = rejected(LeakyConf.LayoutKey, "tree")
    assert(m4.contains("auto | group | join"))
    val m5 = rejected(LeakyConf.Enabled, "yes")
    assert(m5.contains("true or false"))
    assert(rejected(LeakyConf.Delegate, " ").contains(LeakyConf.Delegate))
    for (
      key <- Seq(LeakyConf.MaxHeapFraction, LeakyConf.MaxLiveFraction);
      bad <- Seq("0", "1.5", "half")
    ) {
      val m = rejected(key, bad)
      assert(m.contains(key) && m.contains(s"'$bad'") && m.contains("(0, 1]"), m)
    }
  }

  test("the shuffle manager rejects a missing or self-referencing delegate by name") {
    import org.apache.spark.shuffle.levee.LeakyShuffleManager
    val missing = intercept[IllegalArgumentException](
      new LeakyShuffleManager(
        new SparkConf(false).set(LeakyConf.Delegate, "com.example.NoSuchManager"),
        true
      )
    ).getMessage
    assert(missing.contains(LeakyConf.Delegate) && missing.contains("com.example.NoSuchManager"))
    val self = intercept[IllegalArgumentException](
      new LeakyShuffleManager(
        new SparkConf(false).set(LeakyConf.Delegate, classOf[LeakyShuffleManager].getName),
        true
      )
    )
    assert(self.getMessage.contains("itself"))
  }
}
