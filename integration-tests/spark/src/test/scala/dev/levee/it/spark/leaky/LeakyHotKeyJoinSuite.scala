package dev.levee.it.spark.leaky

import org.apache.spark.TaskContext
import org.scalatest.funsuite.AnyFunSuite

import dev.levee.it.spark.{SharedSparkCluster, SparkTopology}
import dev.levee.leaky.LeakyKeys
import dev.levee.leaky.implicits._

/**
 * One key whose values are three times the executor heap, joined by leakyJoin on executors of 64 MB: the pairs
 * stream from the key's serialized values (in the table, its spill runs and a spool file), so the join completes
 * without a retry. Stock Spark's join, and a cogroup, must hold the key's values as objects and cannot.
 */
class LeakyHotKeyJoinSuite extends AnyFunSuite with SharedSparkCluster {
  import LeakyHotKeyJoinSuite._

  override protected def topology: SparkTopology = SparkTopology.TwoExecutorJvms

  private val HeapMb = 64

  override protected def sparkSettings: Map[String, String] = Map(
    "spark.shuffle.manager" -> LeakyExecutorProbe.ManagerClass,
    "spark.executor.memory" -> s"${HeapMb}m",
    // Spark reserves 300 MB of any heap and refuses heaps under 450 MB; reserve what a 4 GB executor's share would be.
    "spark.testing.reservedMemory" -> ((HeapMb.toLong << 20) * 300 / 4096).toString,
    // Spark refuses to start an executor with less direct memory than its 200 MB fetch-to-memory threshold.
    "spark.executor.extraJavaOptions" -> "-XX:MaxDirectMemorySize=256m",
    LeakyKeys.JoinSpoolMemory -> "1m"
  )

  test("a key whose values are three times the executor heap joins without a retry") {
    val hotBytes = HotValues.toLong * ValueChars
    assert(
      hotBytes >= 3L * (HeapMb.toLong << 20),
      s"the hot key must hold at least 3x the heap, $hotBytes bytes"
    )
    val recorder = new TaskEndRecorder
    sc.addSparkListener(recorder)
    try {
      val (digest, attempts) = recorder.during() {
        val left = sc
          .parallelize(0 until MapTasks, MapTasks)
          .flatMap(m =>
            (m until HotValues by MapTasks).iterator.map(i => ("hot", hotValue(i))) ++
              (m until ColdKeys by MapTasks).iterator.map(i => (s"cold-$i", s"l$i"))
          )
        val right = sc.parallelize(
          Seq("hot" -> "w0", "hot" -> "w1") ++ (0 until ColdKeys by 2).map(i =>
            s"cold-$i" -> s"r$i"
          ),
          2
        )
        left
          .leakyJoin(right, 2)
          .mapPartitions { pairs =>
            var n = 0L; var sum = 0L
            pairs.foreach { case (k, (v, w)) => n += 1; sum += mix(k, v, w) }
            Iterator((n, sum, TaskContext.get().taskMetrics().diskBytesSpilled))
          }
          .collect()
      }
      val failed = attempts.filterNot(_.successful)
      assert(failed.isEmpty, s"no task may fail (an OOM would be retried): $failed")
      val (n, sum) = (digest.map(_._1).sum, digest.map(_._2).sum)
      val expectedPairs = 2L * HotValues + (0 until ColdKeys by 2).size
      assert(n == expectedPairs, s"$n pairs, expected $expectedPairs")
      val expectedSum = (0 until HotValues).iterator.map { i =>
        val v = hotValue(i); mix("hot", v, "w0") + mix("hot", v, "w1")
      }.sum + (0 until ColdKeys by 2).map(i => mix(s"cold-$i", s"l$i", s"r$i")).sum
      assert(sum == expectedSum, "every pair, with the right values")
      assert(digest.exists(_._3 > 0), "the hot key's task must have spilled")
    } finally sc.removeSparkListener(recorder)
  }
}

object LeakyHotKeyJoinSuite {
  val MapTasks = 8
  val ValueChars = 8192
  val HotValues = 24 * 1024 // 192 MiB of values on the hot key's left side
  val ColdKeys = 2000

  def hotValue(i: Int): String = {
    val chars = new Array[Char](ValueChars)
    java.util.Arrays.fill(chars, ('a' + i % 26).toChar)
    val id = i.toString
    id.getChars(0, id.length, chars, 0)
    new String(chars)
  }

  def mix(k: String, v: String, w: String): Long =
    scala.util.hashing.MurmurHash3.productHash((k, v, w)).toLong
}
