package dev.levee.hurricane.driver

import scala.collection.mutable

import dev.levee.hurricane.HurricaneConf
import dev.levee.hurricane.core.{MapRange, WorkerLoad}
import dev.levee.hurricane.protocol._
import org.apache.spark.SparkConf
import org.scalatest.funsuite.AnyFunSuite

/** The coordinator's decisions without Spark: a launcher that records clones, a clock the test moves. */
class BagCoordinatorSuite extends AnyFunSuite {
  private final class FakeLauncher(sizes: Option[Array[Long]] = None) extends CloneLauncher {
    val launched = mutable.Buffer.empty[(BagKey, Int, Boolean => Unit)]
    val cancelled = mutable.Buffer.empty[Int]
    val released = mutable.Buffer.empty[Int]
    override def launch(
        bag: BagKey,
        worker: Int,
        ended: Boolean => Unit
    ): Option[(Int, () => Unit)] = {
      launched += ((bag, worker, ended))
      val rdd = 100 + launched.size
      Some((rdd, () => cancelled += rdd))
    }
    override def release(rddId: Int): Unit = released += rddId
    override def partitionBytes(shuffleId: Int): Option[Array[Long]] = sizes
  }

  private val bag = BagKey(3, 0, 1, 7, 1, 0)
  private var now = 0L

  private def coordinator(launcher: CloneLauncher, settings: (String, String)*): BagCoordinator = {
    val conf = new SparkConf(false)
      .set("spark.levee.hurricane.chunk.targetBytes", "1k")
      .set("spark.levee.hurricane.window", "2")
      .set("spark.levee.hurricane.clone.launchCostMs", "0")
      .set("spark.levee.hurricane.clone.intervalMs", "100")
    settings.foreach { case (k, v) => conf.set(k, v) }
    val slots = new SlotTracker(1)
    slots.executorAdded("1", 2)
    slots.executorAdded("2", 2)
    now = 0L
    new BagCoordinator(HurricaneConf(conf), launcher, slots, () => now)
  }

  private def granted(r: Reply): Granted = r match {
    case g: Granted => g
    case other      => fail(s"expected a grant, got $other")
  }

  test(
    "a partition that fits one window is granted whole; a larger one is not, and covers every map"
  ) {
    val c = coordinator(new FakeLauncher)
    assert(c.handle(Open(bag, Array(500L, 400L))) == Opened(1))
    val g = granted(c.handle(Grant(bag, 0, 1L, 0)))
    assert(g.whole && g.ranges == IndexedSeq(MapRange(0, Int.MaxValue, 900)))

    val big = bag.copy(reducePartition = 2)
    assert(c.handle(Open(big, Array.fill(10)(1000L))) == Opened(10))
    val first = granted(c.handle(Grant(big, 0, 1L, 0)))
    assert(!first.whole && first.ranges.map(_.startMap) == Seq(0, 1))
    val rest = Iterator
      .iterate(2)(_ + 2)
      .map(p => c.handle(Grant(big, 0, 1L, p)))
      .takeWhile(_ != Complete)
      .flatMap(r => granted(r).ranges)
      .toSeq
    assert(rest.size == 8 && rest.last.endMap == Int.MaxValue)
  }

  test(
    "Eq. 4.1 clones a slow bag while a slot is idle, each worker signalling once per interval, never without an idle slot"
  ) {
    val launcher = new FakeLauncher
    val c = coordinator(launcher)
    c.handle(Open(bag, Array.fill(100)(1000L)))
    granted(c.handle(Grant(bag, 0, 1L, 0)))
    now = 1000L * 1000 * 1000 // one second for two chunks: 98 s of work left
    c.tick()
    assert(launcher.launched.map(_._2) == Seq(1))
    c.tick() // within the interval: no second decision
    assert(launcher.launched.size == 1)
    now += 100L * 1000 * 1000
    c.tick() // owner and clone each signal: two more, the workers double
    assert(launcher.launched.map(_._2) == Seq(1, 2, 3))
    now += 100L * 1000 * 1000
    c.tick() // four slots, all four workers' slots taken: no idle slot is left for a fifth
    assert(launcher.launched.size == 3)
    now += 100L * 1000 * 1000
    (0 until 4).foreach(t => c.slots.taskStarted(t.toLong)) // every slot busy
    c.tick()
    assert(launcher.launched.size == 3)
  }

  test(
    "the merge a clone adds is weighed: an owner reading distinct keys gets no clone, one reading few keys does, " +
      "mergeCost 0 is the thesis's rule"
  ) {
    var refused = 0L
    def clonesFor(load: WorkerLoad, keyed: Boolean, settings: (String, String)*): Int = {
      val launcher = new FakeLauncher
      val c = coordinator(launcher, settings: _*)
      c.handle(Open(bag, Array.fill(100)(1000L), keyed))
      granted(c.handle(Grant(bag, 0, 1L, 0)))
      granted(c.handle(Grant(bag, 0, 1L, 2, load))) // the report comes with the next request
      now = 1000L * 1000 * 1000 // 96 s of work left
      c.tick()
      refused = c.metrics.clonesRefusedForMerge.sum()
      launcher.launched.size
    }
    assert(clonesFor(WorkerLoad(20000L, 20000L), keyed = true) == 0)
    assert(refused == 1, "the bag refused a clone Eq. 4.1 wanted is counted once")
    assert(clonesFor(WorkerLoad(20000L, 18000L), keyed = true) == 0)
    assert(clonesFor(WorkerLoad(20000L, 20L), keyed = true) == 1)
    assert(refused == 0, "a clone started is not counted as refused")
    // A keyed bag nobody reported on yet waits for a report; an unkeyed one (a sort, a join) needs none.
    assert(clonesFor(WorkerLoad.Unknown, keyed = true) == 0)
    assert(clonesFor(WorkerLoad.Unknown, keyed = false) == 1)
    val unweighed = "spark.levee.hurricane.clone.mergeCost" -> "0"
    assert(clonesFor(WorkerLoad(20000L, 20000L), keyed = true, unweighed) == 1)
    assert(clonesFor(WorkerLoad.Unknown, keyed = true, unweighed) == 1)
  }

  test(
    "a clone that never started is given up and cancelled; a sealed one is waited for; a done one is fetched"
  ) {
    val launcher = new FakeLauncher
    val c = coordinator(launcher, "spark.levee.hurricane.clone.maxWorkersPerPartition" -> "3")
    c.handle(Open(bag, Array.fill(6)(1000L)))
    granted(c.handle(Grant(bag, 0, 1L, 0)))
    now = 1000L * 1000 * 1000
    c.tick()
    now += 1000L * 1000 * 1000
    c.tick()
    val Seq((_, w1, end1), (_, w2, end2)) = launcher.launched.toSeq
    // Clone 1 takes the other four chunks and reaches the bag's end; its task ends before its job's result arrives.
    granted(c.handle(Grant(bag, w1, 50L, 0)))
    granted(c.handle(Grant(bag, w1, 50L, 2)))
    assert(c.handle(Grant(bag, w1, 50L, 4)) == Complete)
    c.handle(AttemptEnded(50L))
    assert(c.handle(Grant(bag, 0, 1L, 2)) == Complete)
    assert(c.handle(CloneStates(bag)) == Clones(IndexedSeq(CloneRunning(w1), CloneGivenUp(w2))))
    assert(launcher.cancelled == Seq(102))
    end1(true)
    end2(true) // a given-up clone's late success changes nothing
    assert(c.handle(CloneStates(bag)) == Clones(IndexedSeq(CloneDone(w1, 101), CloneGivenUp(w2))))
    assert(c.handle(Adopt(bag, w2)) == Adopted(IndexedSeq.empty))
    // The done clone's partial is lost: adopting it hands its four chunks to the owner.
    assert(c.handle(Adopt(bag, w1)).asInstanceOf[Adopted].ranges.size == 4)
    c.stageAttemptEnded(3, 0)
    assert(c.handle(CloneStates(bag)) == UnknownBag)
    assert(launcher.released.toSet == Set(101, 102))
  }

  test("static seeding: a partition far above the median gets clones when its bag opens") {
    val launcher = new FakeLauncher(Some(Array(1000L, 1000L, 1000L, 40000L)))
    val c = coordinator(
      launcher,
      "spark.levee.hurricane.static.thresholdBytes" -> "1k",
      "spark.levee.hurricane.mode" -> "static"
    )
    c.handle(Open(bag, Array.fill(40)(1000L)))
    assert(launcher.launched.size == 3) // four slots: the owner and three clones
    c.handle(Open(bag.copy(reducePartition = 0), Array.fill(1)(1000L)))
    assert(launcher.launched.size == 3)
    granted(c.handle(Grant(bag, 0, 1L, 0)))
    now = 10L * 1000 * 1000 * 1000
    c.tick() // static mode makes no run-time decision
    assert(launcher.launched.size == 3)
  }

  test(
    "static seeding of a keyed bag waits for its first report: distinct keys get no seed, few keys get them all"
  ) {
    def seeded(load: WorkerLoad): Int = {
      val launcher = new FakeLauncher(Some(Array(1000L, 1000L, 1000L, 40000L)))
      val c = coordinator(
        launcher,
        "spark.levee.hurricane.static.thresholdBytes" -> "1k",
        "spark.levee.hurricane.mode" -> "static"
      )
      c.handle(Open(bag, Array.fill(40)(1000L), keyed = true))
      assert(launcher.launched.isEmpty, "a keyed bag was seeded before any key was read")
      granted(c.handle(Grant(bag, 0, 1L, 0)))
      now = 100L * 1000 * 1000 // 0.1 s for two chunks: 1.9 s of work left
      c.tick()
      assert(launcher.launched.isEmpty, "seeded before the first report")
      granted(c.handle(Grant(bag, 0, 1L, 2, load)))
      c.tick()
      val started = launcher.launched.size
      now += 1000L * 1000 * 1000
      c.tick() // the seeds were decided once: no more in static mode
      assert(launcher.launched.size == started)
      started
    }
    assert(seeded(WorkerLoad(20000L, 20L)) == 3)
    assert(seeded(WorkerLoad(20000L, 19000L)) == 0)
  }

  test("mode off and a uniform bag start no clone") {
    val launcher = new FakeLauncher(Some(Array.fill(4)(40000L)))
    val off = coordinator(launcher, "spark.levee.hurricane.mode" -> "off")
    off.handle(Open(bag, Array.fill(40)(1000L)))
    granted(off.handle(Grant(bag, 0, 1L, 0)))
    now = 10L * 1000 * 1000 * 1000
    off.tick()
    val dynamic = coordinator(launcher, "spark.levee.hurricane.static.thresholdBytes" -> "1k")
    dynamic.handle(Open(bag, Array.fill(40)(1000L)))
    assert(launcher.launched.isEmpty)
  }

  test("a request naming a worker the bag does not have is refused") {
    val c = coordinator(new FakeLauncher)
    c.handle(Open(bag, Array(1L)))
    val e = intercept[IllegalArgumentException](c.handle(Grant(bag, 5, 1L, 0)))
    assert(e.getMessage.contains("no worker 5"))
    assert(c.handle(Grant(bag.copy(stageId = 9), 0, 1L, 0)) == UnknownBag)
  }
}
