package org.apache.spark.shuffle.levee

import java.nio.file.{Files, Paths}
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicInteger

import scala.jdk.CollectionConverters._

import dev.levee.hurricane.HurricanePlugin
import org.apache.spark.{HashPartitioner, SparkConf, SparkContext, TaskContext}
import org.apache.spark.rdd.RDD
import org.apache.spark.scheduler.{SparkListener, SparkListenerJobStart, SparkListenerTaskStart}

/**
 * Hurricane stacked on the leaky buffer's shuffle manager (its delegate reads every chunk) and under the faults a
 * cluster really has, on local-cluster with aggressive speculation on throughout (copies of owners replay their
 * logs beside the original): a clone whose first attempt fails, and an executor
 * killed with SIGKILL while a clone runs on it (its map outputs and any cached partial go with it, so the reads
 * that follow fail to fetch and the map stage runs again). Every answer must equal the driver's.
 */
class HurricaneFaultSuite extends LocalClusterSuite {
  override protected def extraConf(conf: SparkConf): SparkConf =
    HurricaneTestConf
      .scaledDown(conf)
      .set("spark.levee.hurricane.shuffle.delegate", classOf[LeakyShuffleManager].getName)
      .set("spark.speculation", "true")
      .set("spark.speculation.interval", "100ms")
      .set("spark.speculation.multiplier", "1.1")
      .set("spark.speculation.quantile", "0.5")
      .set("spark.task.maxFailures", "8")

  private val part = new HashPartitioner(4)
  private val cloneStages = ConcurrentHashMap.newKeySet[Int]()
  private val cloneExecutors = new java.util.concurrent.LinkedBlockingQueue[String]()

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    sc.addSparkListener(new SparkListener {
      override def onJobStart(job: SparkListenerJobStart): Unit =
        if (
          Option(job.properties).exists(p =>
            String
              .valueOf(p.getProperty(SparkContext.SPARK_JOB_DESCRIPTION))
              .startsWith("Hurricane clone")
          )
        )
          job.stageIds.foreach(id => cloneStages.add(id))
      override def onTaskStart(task: SparkListenerTaskStart): Unit =
        if (cloneStages.contains(task.stageId)) cloneExecutors.add(task.taskInfo.executorId)
    })
  }

  private def metrics = HurricanePlugin.coordinator.get.metrics

  private def data: ZipfRecords = ZipfRecords(3.0, keys = 300, slices = 8, perSlice = 20000)

  private def records(z: ZipfRecords): RDD[(Int, Int)] =
    sc.parallelize(0 until z.slices, z.slices).flatMap(z.slice)

  /** Counts per key with a parked reduce side (about 25 µs a record); `mergeValue` may inject a fault. */
  private def slowCounts(rdd: RDD[(Int, Int)], fault: Int => Unit): Map[Int, Long] =
    rdd
      .combineByKey[Long](
        (_: Int) => 1L,
        (c: Long, v: Int) => { fault(v); if (v % 40 == 0) Thread.sleep(1); c + 1 },
        (a: Long, b: Long) => a + b,
        part,
        mapSideCombine = false
      )
      .collect()
      .toMap

  test(
    "stacked on the leaky manager: groupByKey on Zipf keys equals the driver's, read through leaky tables"
  ) {
    val z = data
    val want = z.all.groupMap(_._1)(_._2).view.mapValues(_.sorted).toMap
    val got = records(z).groupByKey(part).mapValues(_.toVector.sorted).collect().toMap
    assert(got == want)
    val delegates = sc
      .parallelize(0 until 8, 8)
      .map { _ =>
        val manager =
          org.apache.spark.SparkEnv.get.shuffleManager.asInstanceOf[HurricaneShuffleManager]
        (manager.delegate.getClass.getName, LeakyShuffleManager.leakyReadsInThisJvm)
      }
      .collect()
    assert(delegates.forall(_._1 == classOf[LeakyShuffleManager].getName))
    assert(delegates.map(_._2).max > 0, "no read went through a leaky table")
  }

  test(
    "a clone whose first attempt fails mid-read: its retry replays its log or the owner adopts it"
  ) {
    val z = data
    val want = z.all.groupMapReduce(_._1)(_ => 1L)(_ + _)
    val started = metrics.clonesStarted.sum()
    val got = slowCounts(
      records(z),
      v => {
        val ctx = TaskContext.get()
        val description = String.valueOf(ctx.getLocalProperty(SparkContext.SPARK_JOB_DESCRIPTION))
        if (description.startsWith("Hurricane clone") && ctx.attemptNumber() == 0 && v % 997 == 0)
          throw new IllegalStateException(
            s"injected failure in a clone's first attempt at record $v"
          )
      }
    )
    assert(got == want)
    assert(metrics.clonesStarted.sum() > started, "no clone started, so no clone failed")
  }

  test(
    "hurricaneJoinWithMerge with a clone failing mid-way through its pairs, under speculation: equals the driver's"
  ) {
    val z = data
    val build = (0 until 300).flatMap(k => (0 until 1 + k % 3).map(i => (k, k * 10 + i)))
    val byKey = build.groupMap(_._1)(_._2)
    val want = z.all
      .flatMap { case (k, v) => byKey.getOrElse(k, Nil).map(w => (k, v.toLong + w)) }
      .groupMapReduce(_._1)(_._2)(_ + _)
    val started = metrics.clonesStarted.sum()
    import dev.levee.hurricane.api.Hurricane._
    val got = records(z)
      .hurricaneJoinWithMerge(sc.parallelize(build, 3), part) { pairs =>
        val ctx = TaskContext.get()
        val clone =
          String
            .valueOf(ctx.getLocalProperty(SparkContext.SPARK_JOB_DESCRIPTION))
            .startsWith("Hurricane clone")
        val sums = scala.collection.mutable.HashMap.empty[Int, Long]
        pairs.zipWithIndex.foreach { case ((k, (v, w)), i) =>
          if (clone && ctx.attemptNumber() == 0 && i == 500)
            throw new IllegalStateException("injected failure in a clone's first attempt, pair 500")
          if (i % 40 == 0) Thread.sleep(1)
          sums(k) = sums.getOrElse(k, 0L) + v + w
        }
        sums.iterator
      }(parts => parts.flatten.toSeq.groupMapReduce(_._1)(_._2)(_ + _).iterator)
      .collect()
      .toMap
    assert(got == want)
    assert(metrics.clonesStarted.sum() > started, "no clone started, so no clone failed")
  }

  test("kill -9 of the executor running a clone: the answer still equals the driver's") {
    val z = data
    val want = z.all.groupMapReduce(_._1)(_ => 1L)(_ + _)
    cloneExecutors.clear()
    val killed = new AtomicInteger(-1)
    val killer = new Thread(() => {
      val victim = cloneExecutors.poll(120, java.util.concurrent.TimeUnit.SECONDS)
      println(s"[hurricane-fault] clone on executor $victim")
      if (victim != null) {
        Thread.sleep(200) // let the clone take chunks first
        HurricaneFaultSuite.executorProcess(victim).foreach { p =>
          println(s"[hurricane-fault] killing executor $victim, pid ${p.pid()}")
          p.destroyForcibly()
          killed.set(victim.toInt)
        }
      }
    })
    killer.start()
    val got = slowCounts(records(z), _ => ())
    killer.join(180000)
    assert(killed.get() >= 0, "no executor ran a clone, so none was killed")
    assert(got == want)
    awaitExecutors(executors) // the worker starts a replacement
  }
}

object HurricaneFaultSuite {

  /**
   * The JVM of local-cluster executor `id`, found by its command line in /proc (`ProcessHandle.Info.arguments` is
   * empty for a command line as long as an executor's class path).
   */
  def executorProcess(id: String): Option[ProcessHandle] =
    ProcessHandle.allProcesses().iterator().asScala.find { p =>
      val args =
        try
          new String(Files.readAllBytes(Paths.get(s"/proc/${p.pid()}/cmdline")), "UTF-8")
            .split('\u0000')
            .toSeq
        catch { case _: java.io.IOException => Nil }
      args.contains("org.apache.spark.executor.CoarseGrainedExecutorBackend") &&
      args.sliding(2).exists(w => w.head == "--executor-id" && w.last == id)
    }
}
