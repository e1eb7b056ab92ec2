package dev.levee.bench.spark

import dev.levee.bench.{SuiteOptionsCheck, SuiteRegistry}
import org.scalatest.funsuite.AnyFunSuite

class SparkSuiteOptionsSuite extends AnyFunSuite {
  test(
    "the Spark side's suites: their help, their defaults and their presets pass their own checks"
  ) {
    val suites = SuiteRegistry.discover(getClass.getClassLoader)
    assert(
      suites.contains("leaky") && suites.contains("hurricane") && suites.contains("demo-spark")
    )
    assert(SuiteOptionsCheck.checkEverySuite(suites) >= 3)
  }
}
