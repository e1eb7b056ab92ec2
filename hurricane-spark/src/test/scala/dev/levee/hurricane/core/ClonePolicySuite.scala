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

  test(
    "the merge a clone adds: none without keys or with mergeCost 0, the owner's partial with the first clone"
  ) {
    val weighing = policy.copy(mergeCost = 1.0)
    val fresh = MergeLoad(keysPerRecord = 0.3, elapsedSeconds = 10, merging = false)
    // The first clone: its share (T·k/(k+1) = 50 s of reading) plus the owner's partial (10 s read, 50 s to come).
    assert(math.abs(weighing.mergeSeconds(100, 1, fresh) - 0.3 * (50 + 60)) < 1e-9)
    // Once a merge happens anyway, only the new clone's share counts: T·k/(k+1) = 100·2/3 s.
    assert(
      math.abs(weighing.mergeSeconds(100, 2, fresh.copy(merging = true)) - 0.3 * 200 / 3) < 1e-9
    )
    assert(weighing.mergeSeconds(100, 1, MergeLoad.None) == 0)
    assert(policy.mergeSeconds(100, 1, fresh) == 0)
  }

  test(
    "distinct keys never get a first clone; no keys is Eq. 4.1; the decision matches the times compared"
  ) {
    val weighing =
      ClonePolicy(ioFactor = 2.0, launchSeconds = 0.25, maxWorkers = 64, mergeCost = 1.0)
    val rnd = new scala.util.Random(11)
    val mb = 1L << 20
    (0 until 10000).foreach { _ =>
      val remaining = (1 + rnd.nextInt(100000)) * mb
      val drain = (1 + rnd.nextInt(1000)) * mb / 10.0
      val k = 1 + rnd.nextInt(8)
      val load = MergeLoad(rnd.nextDouble(), rnd.nextDouble() * 100, merging = k > 1)
      val d = weighing.decide(remaining, drain, 100.0 * mb, k, load)
      assert(
        d.cloneNow == (weighing.timeWithClone(d.remainingSeconds, k, d.ioSeconds + d.mergeSeconds) <
          d.remainingSeconds)
      )
      val distinct =
        weighing.decide(remaining, drain, 100.0 * mb, 1, MergeLoad(1.0, 0, merging = false))
      assert(!distinct.cloneNow, s"$remaining bytes at $drain B/s")
      val thesis = policy.copy(launchSeconds = 0.25).decide(remaining, drain, 100.0 * mb, k)
      assert(weighing.decide(remaining, drain, 100.0 * mb, k, MergeLoad.None) == thesis)
    }
  }
}
