package dev.levee.hurricane

import dev.levee.config.ConfigException
import org.apache.spark.SparkConf
import org.scalatest.funsuite.AnyFunSuite

class HurricaneConfSuite extends AnyFunSuite {
  test(
    "defaults are the thesis's: 4 MB chunks, a window of 10, decisions 2 s apart, T_IO twice the bytes"
  ) {
    val c = HurricaneConf(new SparkConf(false))
    assert(c.enabled && c.mode == HurricaneConf.Dynamic)
    assert(
      c.chunkTargetBytes == (4L << 20) && c.window == 10 && c.cloneIntervalMillis == 2000 && c.ioFactor == 2.0
    )
    assert(c.delegateShuffleManager == HurricaneConf.DefaultDelegate)
    assert(c.clonePolicy(slots = 16).maxWorkers == 16)
  }

  test("a bad value fails naming the key, the value and what is allowed") {
    val e = intercept[ConfigException](
      HurricaneConf(new SparkConf(false).set(HurricaneConf.ModeKey.name, "eager"))
    )
    assert(e.getMessage.contains(HurricaneConf.ModeKey.name) && e.getMessage.contains("eager"))
    assert(e.getMessage.contains("dynamic"))
    intercept[ConfigException](
      HurricaneConf(new SparkConf(false).set(HurricaneConf.Window.name, "0"))
    )
  }

  test("sort names Spark's own shuffle manager as the delegate") {
    assert(
      HurricaneConf(
        new SparkConf(false).set(HurricaneConf.Delegate.name, "sort")
      ).delegateShuffleManager ==
        HurricaneConf.DefaultDelegate
    )
  }
}
