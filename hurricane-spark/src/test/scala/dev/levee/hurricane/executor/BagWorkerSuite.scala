package dev.levee.hurricane.executor

import scala.collection.mutable

import dev.levee.hurricane.core.MapRange
import org.scalatest.funsuite.AnyFunSuite

class BagWorkerSuite extends AnyFunSuite {

  test(
    "one ahead: the next read is made when this one is taken, never two ahead, every read in order once"
  ) {
    val made = mutable.Buffer.empty[Int]
    val reads = BagWorker.oneAhead(Iterator.range(0, 4).map { i => made += i; i })
    assert(made.isEmpty, "nothing is made before the first read is asked for")
    assert(reads.next() == 0)
    assert(made == Seq(0, 1), "taking read 0 starts read 1")
    assert(reads.next() == 1)
    assert(made == Seq(0, 1, 2))
    assert(reads.toList == List(2, 3))
    assert(made == Seq(0, 1, 2, 3))
    assert(!reads.hasNext)
  }

  test("one ahead of nothing, and of a single read") {
    assert(!BagWorker.oneAhead(Iterator.empty).hasNext)
    val one = BagWorker.oneAhead(Iterator.single("w"))
    assert(one.hasNext && one.next() == "w" && !one.hasNext)
  }

  test("adjacent ranges of a grant join into one read; a gap starts another") {
    val joined = BagWorker.runs(
      IndexedSeq(MapRange(0, 2, 10), MapRange(2, 5, 20), MapRange(7, 9, 5))
    )
    assert(joined == IndexedSeq(MapRange(0, 5, 30), MapRange(7, 9, 5)))
  }
}
