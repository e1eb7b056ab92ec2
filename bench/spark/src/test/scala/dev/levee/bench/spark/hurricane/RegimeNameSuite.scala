package dev.levee.bench.spark.hurricane

import org.scalatest.funsuite.AnyFunSuite

class RegimeNameSuite extends AnyFunSuite {
  import HurricaneBenchSuite.regimeName

  test(
    "a regime at its default size keeps its name; another size is named, so it is another regime"
  ) {
    assert(regimeName("real CPU", 24000000L) == "real CPU")
    assert(regimeName("real CPU", 96000000L) == "real CPU, 96M clicks")
    assert(regimeName("emulated compute", 2000000L) == "emulated compute")
    assert(regimeName("emulated compute", 1500000L) == "emulated compute, 1500000 clicks")
    assert(
      regimeName("real CPU, (region, IP) pairs, 512 MB executors", 12000000L) ==
        "real CPU, (region, IP) pairs, 512 MB executors, 12M clicks"
    )
  }

  test("a name that already says its size, and the join's regimes, are left alone") {
    assert(regimeName("real CPU, 96M clicks", 96000000L) == "real CPU, 96M clicks")
    assert(regimeName("join, real CPU", 4000000L) == "join, real CPU")
  }
}
