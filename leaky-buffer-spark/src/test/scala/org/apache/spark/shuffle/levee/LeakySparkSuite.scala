package org.apache.spark.shuffle.levee

import java.util.concurrent.atomic.AtomicLong

import dev.levee.leaky.LeakyConf
import org.apache.spark.{SparkConf, SparkContext, SparkEnv}
import org.apache.spark.scheduler.{SparkListener, SparkListenerTaskEnd}
import org.scalatest.BeforeAndAfterAll
import org.scalatest.funsuite.AnyFunSuite

/** A local SparkContext with the leaky shuffle manager on, shared by a suite's tests. */
abstract class LeakySparkSuite extends AnyFunSuite with BeforeAndAfterAll {
  protected def master: String = "local[2]"
  protected def extraConf(conf: SparkConf): SparkConf = conf

  @transient protected var sc: SparkContext = _
  protected val failedTasks = new AtomicLong
  protected val diskSpilled = new AtomicLong
  protected val peakMemory = new AtomicLong

  override protected def beforeAll(): Unit = {
    super.beforeAll()
    val conf = new SparkConf()
      .setMaster(master)
      .setAppName(getClass.getSimpleName)
      .set("spark.ui.enabled", "false")
      .set("spark.shuffle.manager", classOf[LeakyShuffleManager].getName)
      // Leaked task memory fails the task, so accounting mistakes cannot hide.
      .set("spark.unsafe.exceptionOnMemoryLeak", "true")
      // Small pages and segments so ordinary test data crosses page and segment boundaries.
      .set(LeakyConf.PageSize.name, "64k")
      .set(LeakyConf.MaxRunSegment.name, "4k")
    sc = new SparkContext(extraConf(conf))
    sc.addSparkListener(new SparkListener {
      override def onTaskEnd(end: SparkListenerTaskEnd): Unit = {
        if (!end.taskInfo.successful) failedTasks.incrementAndGet()
        Option(end.taskMetrics).foreach { m =>
          diskSpilled.addAndGet(m.diskBytesSpilled)
          peakMemory.accumulateAndGet(m.peakExecutionMemory, math.max)
        }
      }
    })
  }

  override protected def afterAll(): Unit = {
    try if (sc != null) sc.stop()
    finally super.afterAll()
  }

  protected def leakyReads: Long =
    SparkEnv.get.shuffleManager.asInstanceOf[LeakyShuffleManager].leakyReads

  protected def drainListener(): Unit = sc.listenerBus.waitUntilEmpty()
}
