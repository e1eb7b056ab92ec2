package dev.levee.bench.spark.hurricane

import scala.collection.mutable
import scala.util.control.NonFatal

import dev.levee.bench.SuiteContext
import dev.levee.bench.spark.hurricane.HurricaneBenchSuite.Point
import dev.levee.hurricane.HurricanePlugin
import dev.levee.it.spark.{SparkCluster, SparkTopology}
import org.apache.spark.SparkContext

/**
 * The skewed join ([[SkewedJoin]]) under each arm, in one cluster per regime: stock Spark's RDD `join`,
 * `hurricaneJoin`, `hurricaneJoinWithMerge`, and the same join as Datasets with AQE's skew join, and with a
 * broadcast hash join. Time is the whole job's (map and reduce stages, and AQE's re-planning), since the Dataset
 * arms' reduce side is not one stage; each arm's answer must equal the first arm's at the same s.
 */
object JoinBench {
  final case class Regime(
      name: String,
      topology: SparkTopology.LocalCluster,
      slots: Int,
      exponents: Seq[Double],
      records: Long,
      maps: Int,
      rowsPerKey: Int,
      parkNanos: Long,
      chunkBytes: Long,
      skewThresholdBytes: Long,
      splitBytes: Long,
      started: String = java.time.Instant.now().toString
  )

  /** Arm name → whether Hurricane reads the job's shuffles. */
  val Arms: Map[String, Boolean] = Map(
    "stock" -> false,
    "hurricane-join" -> true,
    "hurricane" -> true,
    "hurricane-seeded" -> true,
    "hurricane-join-seeded" -> true,
    "dataset-aqe" -> false,
    "dataset-broadcast" -> false
  )

  private def answer(arm: String, join: SkewedJoin, regime: Regime, sc: SparkContext): Long =
    arm match {
      case "stock"                                    => join.rddJoin(sc)
      case "hurricane-join" | "hurricane-join-seeded" => join.hurricaneJoin(sc)
      case "hurricane" | "hurricane-seeded"           => join.hurricaneJoinWithMerge(sc)
      case "dataset-aqe"                              =>
        join.dataset(
          sc,
          SkewedJoin.aqeSettings(join.keys, regime.skewThresholdBytes, regime.splitBytes),
          false
        )
      case "dataset-broadcast" => join.dataset(sc, SkewedJoin.broadcastSettings(join.keys), true)
    }

  def run(context: SuiteContext, regime: Regime, arms: Seq[String], reps: Int): Seq[Point] = {
    arms.filterNot(Arms.contains).foreach { a =>
      throw new IllegalArgumentException(
        s"unknown join arm '$a': allowed are ${Arms.keys.toSeq.sorted.mkString(", ")}"
      )
    }
    val out = mutable.Buffer.empty[Point]
    val answers = mutable.Map.empty[Double, Long]
    // Seeding's threshold is the coordinator's, set when the context starts: the seeded arms get a cluster of their own.
    val (seeded, plain) = arms.partition(Seeded)
    for ((group, cluster) <- Seq(plain -> "hurricane", seeded -> "seeded") if group.nonEmpty) {
      val settings = HurricaneBenchSuite.Clusters(cluster) +
        ("spark.levee.hurricane.chunk.targetBytes" -> regime.chunkBytes.toString)
      context.err().println(s"hurricane: ${regime.name}: arms ${group.mkString(", ")}")
      runInCluster(context, regime, group, reps, settings, answers, out)
    }
    out.toSeq
  }

  /** The `hurricane` and `hurricane-join` arms with static seeding at the threshold ClickLog's seeded arm uses. */
  private val Seeded = Set("hurricane-seeded", "hurricane-join-seeded")

  private def runInCluster(
      context: SuiteContext,
      regime: Regime,
      arms: Seq[String],
      reps: Int,
      settings: Map[String, String],
      answers: mutable.Map[Double, Long],
      out: mutable.Buffer[Point]
  ): Unit =
    SparkCluster.using(regime.topology, settings, "levee-bench-hurricane-join") { cluster =>
      val sc = cluster.sc
      val listener = new ReduceStageTimes
      sc.addSparkListener(listener)
      // One unmeasured round of every arm first: class loading, JIT, Spark SQL's first planning.
      val warm = SkewedJoin(0, regime.records / 8, regime.maps, regime.rowsPerKey, 0)
      arms.foreach(a => query(sc, a, warm, regime))
      for (rep <- 0 until reps; s <- regime.exponents) {
        val order = if (rep % 2 == 0) arms else arms.reverse
        for (arm <- order) {
          val join = SkewedJoin(s, regime.records, regime.maps, regime.rowsPerKey, regime.parkNanos)
          val clonesBefore = clones
          listener.reset()
          val base =
            Point(
              regime.name,
              regime.slots,
              arm,
              s,
              join.hottestShare,
              rep,
              ok = false,
              error = "",
              workload = "join",
              run = regime.started
            )
          val t0 = System.nanoTime()
          val point =
            try {
              val answer = query(sc, arm, join, regime)
              val seconds = (System.nanoTime() - t0) / 1e9
              val matches = answers.getOrElseUpdate(s, answer) == answer
              base.copy(
                ok = matches,
                error =
                  if (matches) "" else s"answer $answer differs from the first arm's ${answers(s)}",
                jobSeconds = seconds,
                reduceSeconds = seconds,
                clones = clones - clonesBefore,
                shuffleBytesRead = listener.shuffleBytesRead
              )
            } catch {
              case NonFatal(e) =>
                base.copy(error = e.toString, jobSeconds = (System.nanoTime() - t0) / 1e9)
            }
          context
            .err()
            .println(
              f"hurricane: ${regime.name} $arm s=$s rep $rep: job ${point.jobSeconds}%.2f s, clones ${point.clones}" +
                (if (point.ok) "" else " FAILED: " + point.error)
            )
          HurricaneBenchSuite.record(
            context,
            regime.name,
            regime.slots,
            regime.records,
            regime.parkNanos,
            regime.chunkBytes,
            point
          )
          out += point
        }
      }
    }

  private def clones: Long =
    HurricanePlugin.coordinator.map(_.metrics.clonesStarted.sum()).getOrElse(0L)

  private def query(sc: SparkContext, arm: String, join: SkewedJoin, regime: Regime): Long = {
    sc.setLocalProperty("spark.levee.hurricane.enabled", Arms(arm).toString)
    try answer(arm, join, regime, sc)
    finally sc.setLocalProperty("spark.levee.hurricane.enabled", null)
  }
}
