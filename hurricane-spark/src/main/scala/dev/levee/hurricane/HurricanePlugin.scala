package dev.levee.hurricane

import java.util.{Map => JMap}
import java.util.concurrent.{Executors, ScheduledExecutorService, TimeUnit}

import com.codahale.metrics.Gauge
import dev.levee.hurricane.driver.{BagCoordinator, SlotTracker}
import dev.levee.hurricane.executor.CoordinatorClient
import dev.levee.hurricane.protocol.{Ack, Codec}
import org.apache.spark.SparkContext
import org.apache.spark.api.plugin.{DriverPlugin, ExecutorPlugin, PluginContext, SparkPlugin}
import org.apache.spark.internal.Logging
import org.apache.spark.scheduler._
import org.apache.spark.shuffle.levee.HurricaneDriverSide

/**
 * `spark.plugins=dev.levee.hurricane.HurricanePlugin`: the bag coordinator in the driver and the line to it in
 * every executor, through Spark's public plugin API. It works with
 * `spark.shuffle.manager=org.apache.spark.shuffle.levee.HurricaneShuffleManager`.
 */
class HurricanePlugin extends SparkPlugin {
  override def driverPlugin(): DriverPlugin = new HurricaneDriverPlugin
  override def executorPlugin(): ExecutorPlugin = new ExecutorPlugin {
    override def init(ctx: PluginContext, extraConf: JMap[String, String]): Unit = {
      CoordinatorClient.attach(ctx)
      TaskCounters.attach(extraConf)
    }
  }
}

object HurricanePlugin {
  @volatile private[hurricane] var current: Option[BagCoordinator] = None

  /** This driver's coordinator, while a context with the plugin runs (its metrics are what tests read). */
  def coordinator: Option[BagCoordinator] = current

  /** How often the coordinator considers clones; decisions per bag are rarer (`clone.intervalMs`). */
  val TickMillis = 50L
}

private final class HurricaneDriverPlugin extends DriverPlugin with Logging {
  private var coordinator: BagCoordinator = _
  private var ticker: ScheduledExecutorService = _
  // Held here: Spark's accumulator registry keeps only weak references.
  private var counters: TaskCounters.Registered = _

  override def init(sc: SparkContext, ctx: PluginContext): JMap[String, String] = {
    val conf = HurricaneConf(sc.getConf)
    val slots = new SlotTracker(sc.getConf.getInt("spark.task.cpus", 1))
    coordinator = new BagCoordinator(conf, HurricaneDriverSide.launcher(sc), slots)
    sc.addSparkListener(new CoordinatorListener(coordinator, slots))
    ticker = Executors.newSingleThreadScheduledExecutor { r =>
      val t = new Thread(r, "hurricane-coordinator")
      t.setDaemon(true)
      t
    }
    ticker.scheduleWithFixedDelay(
      () =>
        try coordinator.tick()
        catch { case e: Exception => logWarning("Hurricane clone decision failed", e) },
      HurricanePlugin.TickMillis,
      HurricanePlugin.TickMillis,
      TimeUnit.MILLISECONDS
    )
    HurricanePlugin.current = Some(coordinator)
    counters = new TaskCounters.Registered(sc)
    counters.initMap
  }

  override def registerMetrics(appId: String, ctx: PluginContext): Unit = {
    val m = coordinator.metrics
    Seq(
      "bagsOpened" -> m.bagsOpened,
      "chunksGranted" -> m.chunksGranted,
      "chunksReplayed" -> m.chunksReplayed,
      "clonesStarted" -> m.clonesStarted,
      "clonesDone" -> m.clonesDone,
      "clonesSeeded" -> m.clonesSeeded,
      "clonesGivenUp" -> m.clonesGivenUp,
      "clonesRefusedForMerge" -> m.clonesRefusedForMerge
    ).foreach { case (name, adder) =>
      ctx
        .metricRegistry()
        .register(name, new Gauge[Long] { override def getValue: Long = adder.sum() })
    }
  }

  override def receive(message: AnyRef): AnyRef = message match {
    case bytes: Array[Byte] =>
      coordinator.handle(Codec.decodeRequest(bytes)) match {
        case Ack   => null // the answer to a one-way message: Spark warns about any reply to a send
        case reply => Codec.encode(reply)
      }
    case other =>
      throw new IllegalArgumentException(
        s"Hurricane's coordinator takes encoded requests, not ${other.getClass}"
      )
  }

  override def shutdown(): Unit = {
    if (ticker != null) ticker.shutdownNow()
    HurricanePlugin.current = None
  }
}

/** Feeds the coordinator what only the scheduler knows: slots, task ends and finished stage attempts. */
private final class CoordinatorListener(coordinator: BagCoordinator, slots: SlotTracker)
    extends SparkListener {
  override def onExecutorAdded(e: SparkListenerExecutorAdded): Unit =
    slots.executorAdded(e.executorId, e.executorInfo.totalCores)
  override def onExecutorRemoved(e: SparkListenerExecutorRemoved): Unit =
    slots.executorRemoved(e.executorId)
  override def onTaskStart(e: SparkListenerTaskStart): Unit = slots.taskStarted(e.taskInfo.taskId)
  override def onTaskEnd(e: SparkListenerTaskEnd): Unit = {
    slots.taskEnded(e.taskInfo.taskId)
    coordinator.attemptEnded(e.taskInfo.taskId)
  }
  override def onStageCompleted(e: SparkListenerStageCompleted): Unit =
    coordinator.stageAttemptEnded(e.stageInfo.stageId, e.stageInfo.attemptNumber())
}
