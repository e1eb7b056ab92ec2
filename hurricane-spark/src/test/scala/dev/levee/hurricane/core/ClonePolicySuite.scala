package dev.levee.hurricane.core

import org.scalatest.funsuite.AnyFunSuite

class ClonePolicySuite extends AnyFunSuite {
  private val policy = ClonePolicy(ioFactor = 2.0, launchSeconds = 0, maxWorkers = 64)

  test("the thesis's example: 10 s left on 4 workers, a fifth brings it to 8 s plus T_IO") {
    assert(policy.timeWithClone(10, 4, 0) == 8.0)
    assert(policy.timeWithClone(10, 4, 1.5) == 9.5)
    // Worth it only while the clone's overhead stays under the 2 s it saves: T > (k+1)·T_IO.
    assert(policy.worthCloning(10, 4, 1.99))
    assert(!policy.worthCloning(10, 4, 2.0))
    assert(!policy.worthCloning(10, 4, 2.5))
  }

  test("Eq. 4.1 agrees with comparing times with and without the clone") {
    val rnd = new scala.util.Random(7)
    (0 until 10000).foreach { _ =>
      val t = rnd.nextDouble() * 100
      val k = 1 + rnd.nextInt(30)
      val io = rnd.nextDouble() * 10
      val faster = policy.timeWithClone(t, k, io) < t
      assert(policy.worthCloning(t, k, io) == faster, s"T=$t k=$k T_IO=$io")
    }
  }

  test("no clone near a task's end, none past the cap, none without a drain rate") {
    val mb = 1L << 20
    val launching = policy.copy(launchSeconds = 0.2)
    // 1 MB left at 10 MB/s: 0.1 s left, less than one clone launch.
    assert(!launching.decide(mb, 10.0 * mb, 100.0 * mb, 1).cloneNow)
    // 1 GB left at 10 MB/s (102 s), a clone's half read twice at 100 MB/s: about 10 s, so clone.
    val d = launching.decide(1024 * mb, 10.0 * mb, 100.0 * mb, 1)
    assert(d.cloneNow && d.remainingSeconds == 102.4 && math.abs(d.ioSeconds - 10.44) < 1e-9)
    assert(!launching.copy(maxWorkers = 3).decide(1024 * mb, 10.0 * mb, 100.0 * mb, 3).cloneNow)
    assert(!launching.decide(1024 * mb, 0, 100.0 * mb, 1).cloneNow)
    // A bag that drains at I/O speed never gains from a clone: T_IO is as large as the time left.
    assert(!policy.decide(1024 * mb, 100.0 * mb, 100.0 * mb, 1).cloneNow)
  }
}
