package dev.levee.leaky.memory

import java.util.concurrent.atomic.AtomicLong

import org.scalatest.funsuite.AnyFunSuite

class HeapBudgetSuite extends AnyFunSuite {
  private val MiB = 1L << 20

  test("the fixed heap share caps the tables until a full collection is seen") {
    val held = new AtomicLong
    val ceiling = LiveHeapCeiling.manual(0.7, 100 * MiB, () => held.get)
    val budget = new HeapBudget(30 * MiB, ceiling)
    assert(ceiling.othersLiveBytes == -1 && ceiling.bytes == Long.MaxValue)
    assert(budget.acquireUpTo(50 * MiB) == 30 * MiB)
    assert(budget.acquireUpTo(1) == 0)
  }

  test(
    "after a full collection the tables may fill the old generation's live share beside what else is live"
  ) {
    val budget = new AtomicLong // the tables' grants at the moment of the collection
    val ceiling = LiveHeapCeiling.manual(0.7, 100 * MiB, () => budget.get)
    budget.set(10 * MiB)
    ceiling.afterFullCollection(60 * MiB) // 50 MiB of it is not the tables'
    assert(ceiling.othersLiveBytes == 50 * MiB)
    assert(ceiling.bytes == 20 * MiB, "70 MiB live share - 50 MiB of Spark's")

    val heap = new HeapBudget(30 * MiB, ceiling)
    assert(heap.currentLimit == 20 * MiB && heap.acquireUpTo(25 * MiB) == 20 * MiB)
    heap.release(20 * MiB)

    budget.set(0)
    ceiling.afterFullCollection(
      80 * MiB
    ) // Spark's own live set grew past the live share: nothing for the tables
    assert(ceiling.bytes == 0 && heap.acquireUpTo(MiB) == 0)
    ceiling.afterFullCollection(5 * MiB) // and shrank again: the fixed share is the cap once more
    assert(heap.currentLimit == 30 * MiB)
  }

  test(
    "this JVM's full collections feed the ceiling, and a large live array lowers it by its size"
  ) {
    val ceiling = LiveHeapCeiling.ofThisJvm(0.7, () => 0L) match {
      case c: LiveHeapCeiling => c
      case other              => fail(s"a HotSpot JVM offers collection notifications, got $other")
    }
    def collectAndWait(): Long = {
      val before = ceiling.bytes
      System.gc() // a full collection under every HotSpot collector unless -XX:+ExplicitGCInvokesConcurrent
      val deadline = System.nanoTime() + 10_000_000_000L
      while (ceiling.othersLiveBytes < 0 && System.nanoTime() < deadline) Thread.sleep(10)
      Thread.sleep(200) // notifications are delivered on a service thread
      assert(ceiling.othersLiveBytes > 0, "no full collection was reported")
      ceiling.bytes
    }
    val without = collectAndWait()
    val ballast = new Array[Byte]((32 * MiB).toInt)
    val withBallast = collectAndWait()
    assert(ballast.length > 0)
    assert(
      without - withBallast >= 30 * MiB && without - withBallast <= 40 * MiB,
      s"a 32 MiB live array lowered the ceiling by ${(without - withBallast) / MiB} MiB"
    )
  }
}
