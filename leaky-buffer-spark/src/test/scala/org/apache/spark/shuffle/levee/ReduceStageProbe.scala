package org.apache.spark.shuffle.levee

import scala.collection.mutable.ArrayBuffer

import dev.levee.leaky.implicits._
import org.apache.spark.{SparkConf, SparkContext}
import org.apache.spark.scheduler.{SparkListener, SparkListenerStageCompleted}
import org.apache.spark.shuffle.sort.SortShuffleManager

/**
 * A profiling harness, not a test (no suite runs it): the bench's plentiful-memory point in one
 * JVM. The paper's data (five-digit uniform keys, 12-character values) is grouped and joined on
 * `local[1]` by stock Spark and by the leaky table, and the reduce stage (fetch, deserialize,
 * aggregate, consume) is timed, so a change to the table can be judged in a minute instead of a
 * bench run. Contexts alternate stock/leaky so machine-load drift hits both.
 *
 * Run with the module's test classpath:
 * `java <Spark's --add-opens> -cp target/test-classes:target/classes:<deps> \
 *    org.apache.spark.shuffle.levee.ReduceStageProbe [records] [reduceTasks] [rounds] [repsPerRound]`
 */
object ReduceStageProbe {

  def main(args: Array[String]): Unit = {
    val records = args.headOption.map(_.toInt).getOrElse(1000000)
    val reduceTasks = if (args.length > 1) args(1).toInt else 4
    val rounds = if (args.length > 2) args(2).toInt else 2
    val reps = if (args.length > 3) args(3).toInt else 5
    val times =
      Map("stock" -> ArrayBuffer[(String, Double)](), "leaky" -> ArrayBuffer[(String, Double)]())
    // -Dprobe.variants=leaky profiles one side only (e.g. under a JFR recording).
    val only =
      sys.props.get("probe.variants").map(_.split(',').toSet).getOrElse(Set("stock", "leaky"))
    for (
      round <- 0 until rounds;
      variant <- if (round % 2 == 0) Seq("stock", "leaky") else Seq("leaky", "stock")
      if only(variant)
    ) {
      times(variant) ++= runContext(variant, records, reduceTasks, reps)
    }
    for (op <- Seq("groupby", "join"); variant <- Seq("stock", "leaky") if only(variant)) {
      val t = times(variant).filter(_._1 == op).map(_._2).sorted
      println(
        f"probe $op%-8s $variant%-6s median ${t(t.size / 2)}%.3f s  all ${t.map(x => f"$x%.2f").mkString(" ")}"
      )
    }
  }

  private def runContext(
      variant: String,
      records: Int,
      reduceTasks: Int,
      reps: Int
  ): Seq[(String, Double)] = {
    val conf = new SparkConf()
      .setMaster("local[1]")
      .setAppName(s"probe-$variant")
      .set("spark.ui.enabled", "false")
      .set(
        "spark.shuffle.manager",
        if (variant == "leaky") classOf[LeakyShuffleManager].getName
        else classOf[SortShuffleManager].getName
      )
    val sc = new SparkContext(conf)
    try {
      val stageSeconds = new java.util.concurrent.LinkedBlockingQueue[Double]()
      sc.addSparkListener(new SparkListener {
        override def onStageCompleted(e: SparkListenerStageCompleted): Unit = {
          val i = e.stageInfo
          for (s <- i.submissionTime; c <- i.completionTime) stageSeconds.put((c - s) / 1000.0)
        }
      })
      val n = records
      val left = sc.parallelize(0 until n, 4).map(i => (key(i, 7), value(i))).cache()
      val right = sc.parallelize(0 until n / 10, 2).map(i => (key(i, 8), value(i + n))).cache()
      left.count(); right.count()
      val out = ArrayBuffer[(String, Double)]()
      for (rep <- -1 until reps) { // rep -1 warms the JIT up and is not kept
        stageSeconds.clear()
        val g =
          left.groupByKey(reduceTasks).map { case (_, vs) => vs.foldLeft(0L)(_ + _.length) }.sum()
        sc.listenerBus.waitUntilEmpty()
        val gt = lastStage(stageSeconds)
        stageSeconds.clear()
        val joined =
          if (variant == "leaky") left.leakyJoin(right, reduceTasks)
          else left.join(right, reduceTasks)
        val j = joined.map { case (_, (v, w)) => v.length + w.length }.sum()
        sc.listenerBus.waitUntilEmpty()
        val jt = lastStage(stageSeconds)
        if (rep >= 0) { out += (("groupby", gt)); out += (("join", jt)) }
        System.err.println(f"probe $variant rep $rep groupby $gt%.3f s ($g) join $jt%.3f s ($j)")
      }
      out.toSeq
    } finally sc.stop()
  }

  private def lastStage(q: java.util.concurrent.LinkedBlockingQueue[Double]): Double = {
    var last = 0.0
    while (!q.isEmpty) last = q.take()
    last
  }

  private def key(i: Int, seed: Int): String = {
    val h = scala.util.hashing.MurmurHash3.mix(seed, i)
    (10000 + (h & 0x7fffffff) % 90000).toString
  }

  private def value(i: Int): String = {
    val h = scala.util.hashing.MurmurHash3.finalizeHash(i, 12)
    f"v${h & 0x7fffffff}%011d".take(12)
  }
}
