package org.apache.spark.shuffle.levee

import java.util.concurrent.ConcurrentLinkedQueue

import scala.concurrent.Await
import scala.concurrent.duration._
import scala.jdk.CollectionConverters._

import org.apache.spark.{HashPartitioner, ShuffleDependency, SparkConf, SparkEnv, TaskContext}
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd, SparkListenerTaskStart}
import org.apache.spark.storage.{RDDBlockId, StorageLevel}

/**
 * Tagged [[RiskProbeSuite.Probe]] and so left out of the default test run (the behaviour they check is what
 * `HurricaneSuite` and `HurricaneFaultSuite` rely on and test end to end); run them with
 * `-Dlevee.scalatest.exclude=none`.
 *
 * The four open risks of the Hurricane-on-Spark design, each settled on a real local-cluster (two executor JVMs,
 * one slot each). The numbers these probes log are the ones the module README quotes; the asserts are the
 * behaviour the design relies on.
 */
class RiskProbeSuite extends LocalClusterSuite {
  override protected def extraConf(conf: SparkConf): SparkConf =
    conf.set("spark.plugins", classOf[EchoPlugin].getName)

  private val maps = 8
  private val rows = 40000
  private val tasks = new ConcurrentLinkedQueue[SparkListenerTaskEnd]()
  private val starts = new ConcurrentLinkedQueue[SparkListenerTaskStart]()

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(end: SparkListenerTaskEnd): Unit = tasks.add(end)
      override def onTaskStart(start: SparkListenerTaskStart): Unit = starts.add(start)
    })
  }

  private def mapTasks: Int = {
    sc.listenerBus.waitUntilEmpty()
    tasks.asScala.count(_.taskType == "ShuffleMapTask")
  }

  private def shuffle(): (RDD[(Int, Int)], ShuffleDependency[Int, Int, Int]) = {
    val shuffled =
      sc.parallelize(0 until rows, maps).map(i => (i % 1000, i)).partitionBy(new HashPartitioner(4))
    (shuffled, shuffled.dependencies.head.asInstanceOf[ShuffleDependency[Int, Int, Int]])
  }

  /** Records of reduce partition `p` written by map tasks [a, b): the parallelize slices are contiguous. */
  private def expected(p: Int, a: Int, b: Int): Seq[Int] = {
    val slice = rows / maps
    (a * slice until b * slice).filter(i => (i % 1000) % 4 == p)
  }

  private def log(line: String): Unit = println(s"[hurricane-risk] $line")

  private def stats(label: String, nanos: Seq[Long]): Unit = {
    val s = nanos.sorted
    def q(f: Double) = s(math.min(s.size - 1, (f * s.size).toInt)) / 1e6
    log(
      f"$label: n=${s.size} median=${q(0.5)}%.3f ms p90=${q(0.9)}%.3f ms p99=${q(0.99)}%.3f ms max=${s.last / 1e6}%.3f ms"
    )
  }

  test(
    "risk 1: a one-partition job over a finished stage's ShuffleDependency reuses its map output",
    RiskProbeSuite.Probe
  ) {
    val (shuffled, dep) = shuffle()
    assert(shuffled.count() == rows)
    val before = mapTasks
    assert(before == maps)
    val p = 1
    val durations = (0 until 12).map { i =>
      val (a, b) = if (i % 2 == 0) (0, 3) else (3, maps)
      val t0 = System.nanoTime()
      val got = sc
        .runJob(
          new MapRangeProbeRDD(sc, dep, p, a, b, Nil),
          (it: Iterator[(Int, Int)]) => it.map(_._2).toVector
        )
        .head
      val t = System.nanoTime() - t0
      assert(got.sorted == expected(p, a, b))
      t
    }
    // Not one map task ran again: the scheduler found the shuffle's map stage by id and skipped it.
    assert(mapTasks == before)
    stats("one-task clone job over the finished shuffle, submit to result", durations.drop(2))
  }

  test(
    "risk 2: an owner task reads a clone's cached partial, or recomputes it when the block is gone",
    RiskProbeSuite.Probe
  ) {
    val (shuffled, dep) = shuffle()
    shuffled.count()
    val p = 2
    val partial =
      new MapRangeProbeRDD(sc, dep, p, 2, 6, Nil).mapPartitions(it =>
        Iterator(it.map(_._2.toLong).sum)
      )
    partial.persist(StorageLevel.MEMORY_AND_DISK_SER)
    val want = expected(p, 2, 6).map(_.toLong).sum
    assert(partial.collect().toSeq == Seq(want))
    val block = RDDBlockId(partial.id, 0)

    // Two owner tasks side by side (one per executor): one finds the block locally, the other fetches it.
    def ownersRead(): Seq[(String, String, Long)] =
      sc.parallelize(0 until 2, 2)
        .mapPartitions { _ =>
          Thread.sleep(500) // keep both slots busy so the two tasks land on different executors
          val bm = SparkEnv.get.blockManager
          val id = SparkEnv.get.executorId
          // Reading to the end releases the read lock a local get takes.
          def value(r: org.apache.spark.storage.BlockResult) = r.data.toList.head.asInstanceOf[Long]
          val local = bm.getLocalValues(block).map(r => ("local", value(r)))
          val found = local.orElse(bm.getRemoteValues[Long](block).map(r => ("remote", value(r))))
          Iterator(found.fold((id, "missing", -1L)) { case (how, v) => (id, how, v) })
        }
        .collect()
        .toSeq

    val cached = ownersRead()
    log(s"owner reads of a cached partial: ${cached.mkString(", ")}")
    assert(cached.forall(_._3 == want))
    assert(cached.map(_._2).toSet == Set("local", "remote"))

    // Through the clone RDD itself: RDD.iterator inside another job's task finds the cached block...
    val viaIterator = sc.parallelize(0 until 1, 1).mapPartitions { _ =>
      val t0 = System.nanoTime()
      val v = partial.iterator(partial.partitions(0), TaskContext.get()).next()
      Iterator((v, System.nanoTime() - t0))
    }
    val (cachedValue, cachedNanos) = viaIterator.collect().head
    assert(cachedValue == want)

    // ...and once the block is gone, recomputes it in the owner's task by reading the same map range again
    // (the replay of the clone's grant log), with no new job and no map stage.
    partial.unpersist(blocking = true)
    val gone = ownersRead()
    assert(gone.forall(_._2 == "missing"))
    val mapsBefore = mapTasks
    val (replayed, replayNanos) = viaIterator.collect().head
    assert(replayed == want)
    assert(mapTasks == mapsBefore)
    log(
      f"owner task: partial via the clone RDD's iterator, cached ${cachedNanos / 1e6}%.1f ms, recomputed by replay ${replayNanos / 1e6}%.1f ms"
    )
  }

  test(
    "risk 3: under FIFO a clone job takes only an idle slot; preferring a busy executor waits for locality",
    RiskProbeSuite.Probe
  ) {
    val wait = sc.getConf.get("spark.locality.wait", "3s")
    val (done, dep) = shuffle()
    done.count()
    def run(preferBusy: Boolean): (Long, Long, Long, Long) = {
      starts.clear(); tasks.clear()
      val owner = sc.parallelize(0 until 2, 2).mapPartitions { it =>
        val p = it.next()
        Thread.sleep(if (p == 0) 8000 else 1000)
        Iterator(p)
      }
      val ownerJob = sc.submitJob(
        owner,
        (it: Iterator[Int]) => it.toVector,
        0 until 2,
        (_: Int, _: Vector[Int]) => (),
        ()
      )
      while (starts.size < 2) Thread.sleep(20)
      sc.listenerBus.waitUntilEmpty()
      val ownerStage = starts.asScala.head.stageId
      val longExec = starts.asScala.find(_.taskInfo.index == 0).get.taskInfo
      val prefer = if (preferBusy) Seq(s"executor_${longExec.host}_${longExec.executorId}") else Nil
      val clone = new MapRangeProbeRDD[Int, Int](sc, dep, 0, 0, 0, prefer) {
        override def compute(
            split: org.apache.spark.Partition,
            context: TaskContext
        ): Iterator[(Int, Int)] = {
          Thread.sleep(200); Iterator.empty
        }
      }
      sc.runJob(clone, (it: Iterator[(Int, Int)]) => it.size)
      Await.ready(ownerJob, 60.seconds)
      sc.listenerBus.waitUntilEmpty()
      val owners = tasks.asScala.filter(_.stageId == ownerStage)
      val short = owners.find(_.taskInfo.index == 1).get.taskInfo
      // The slot is offered again when the executor's status update arrives, a little before the driver's
      // result thread stamps finishTime, so compare with the end of the short task's sleep.
      val shortEnd = short.finishTime
      val shortBusyUntil = short.launchTime + 1000
      val longEnd = owners.find(_.taskInfo.index == 0).get.taskInfo.finishTime
      val cloneStart = starts.asScala.filter(_.stageId != ownerStage).map(_.taskInfo.launchTime).max
      (shortBusyUntil, longEnd, cloneStart, cloneStart - shortEnd)
    }
    val (shortBusyUntil, longEnd, cloneStart, delay) = run(preferBusy = false)
    // FIFO: the earlier job's running tasks are never pre-empted; the clone starts in the slot the short task freed.
    assert(cloneStart >= shortBusyUntil && cloneStart < longEnd)
    log(s"clone without preferred locations: launched $delay ms after a slot went idle")
    val (_, longEnd2, cloneStart2, delay2) = run(preferBusy = true)
    log(
      s"clone preferring the busy executor (spark.locality.wait=$wait): launched $delay2 ms after a slot went idle; " +
        s"${longEnd2 - cloneStart2} ms before the busy task ended"
    )
  }

  test(
    "risk 4: one coordinator round trip through PluginContext.ask from inside a task",
    RiskProbeSuite.Probe
  ) {
    val rounds = 2000
    val samples = sc
      .parallelize(0 until 2, 2)
      .mapPartitions { _ =>
        val ctx = EchoPlugin.context
        val grant =
          (0 until 10).map(i => (i * 4, i * 4 + 4)).toArray // a window of ten map-index ranges
        (0 until 200).foreach(_ => ctx.ask(grant)) // warm the connection and the JIT
        Iterator.tabulate(rounds) { _ =>
          val t0 = System.nanoTime()
          ctx.ask(grant)
          System.nanoTime() - t0
        }
      }
      .collect()
      .toSeq
    assert(samples.size == 2 * rounds)
    stats(
      "PluginContext.ask round trip (two tasks asking at once, a 10-range grant each way)",
      samples
    )
  }
}

object RiskProbeSuite {

  /** A measurement probe: its numbers are quoted in the README; it is not part of the default run. */
  object Probe extends org.scalatest.Tag("dev.levee.hurricane.Probe")
}
