package dev.levee.hurricane.core

import org.scalatest.funsuite.AnyFunSuite

class ChunkPlannerSuite extends AnyFunSuite {
  test(
    "ranges cover every map once, in order, and stay under the target unless one block is larger"
  ) {
    val rnd = new scala.util.Random(11)
    (0 until 2000).foreach { _ =>
      val sizes =
        IndexedSeq.fill(rnd.nextInt(50))(if (rnd.nextInt(4) == 0) 0L else rnd.nextInt(10000).toLong)
      val target = 1 + rnd.nextInt(20000).toLong
      val plan = ChunkPlanner.plan(sizes, target)
      assert(plan.flatMap(r => r.startMap until r.endMap) == sizes.indices)
      plan.foreach { r =>
        assert(r.bytes == sizes.slice(r.startMap, r.endMap).sum)
        val nonEmpty = sizes.slice(r.startMap, r.endMap).count(_ > 0)
        assert(r.bytes <= target || nonEmpty == 1, s"$r over $target with $nonEmpty blocks")
      }
    }
  }

  test("4 MB chunks over 4 MB map outputs are one map each; tiny outputs share a chunk") {
    val mb = 1L << 20
    assert(
      ChunkPlanner.plan(IndexedSeq(4 * mb, 4 * mb, 4 * mb), 4 * mb).map(_.endMap) == Seq(1, 2, 3)
    )
    assert(
      ChunkPlanner.plan(IndexedSeq.fill(8)(mb), 4 * mb).map(r => (r.startMap, r.endMap)) == Seq(
        (0, 4),
        (4, 8)
      )
    )
    assert(ChunkPlanner.plan(IndexedSeq.empty, 4 * mb).isEmpty)
  }
}
