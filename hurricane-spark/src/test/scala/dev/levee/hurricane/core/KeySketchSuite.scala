package dev.levee.hurricane.core

import org.scalatest.funsuite.AnyFunSuite

class KeySketchSuite extends AnyFunSuite {

  private def sketchOf(keys: Iterator[Any]): KeySketch = {
    val s = new KeySketch
    keys.foreach(s.add)
    s
  }

  test("distinct keys are estimated within 10 %, from none to a million") {
    assert(sketchOf(Iterator.empty).load == WorkerLoad(0, 0))
    assert(sketchOf(Iterator.single("a")).load == WorkerLoad(1, 1))
    Seq(100, 1000, 10000, 100000, 1000000).foreach { n =>
      val s = sketchOf(Iterator.range(0, n).map(i => s"key-$i"))
      assert(s.records == n)
      assert(math.abs(s.keys - n) <= 0.1 * n, s"$n distinct keys estimated as ${s.keys}")
    }
  }

  test(
    "repeated keys count once; one reduce partition's keys (a single residue of the hash) are no problem"
  ) {
    // 200,000 records of 40,000 keys, each seen five times, in the order a shuffle might deliver them.
    val repeated = sketchOf(Iterator.range(0, 200000).map(i => (i % 40000) * 16 + 3))
    assert(repeated.records == 200000)
    assert(math.abs(repeated.keys - 40000) <= 4000, s"estimated ${repeated.keys}")
    // Tuple keys: pairs, as the ClickLog bench's distinct (region, IP) pairs.
    val pairs = sketchOf(Iterator.range(0, 50000).map(i => (7, i)))
    assert(math.abs(pairs.keys - 50000) <= 5000, s"estimated ${pairs.keys}")
    // Never more keys than records, and null keys count as one.
    assert(sketchOf(Iterator.fill(3)(null)).load == WorkerLoad(3, 1))
  }
}
