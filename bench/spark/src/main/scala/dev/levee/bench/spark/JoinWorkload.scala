package dev.levee.bench.spark

import org.apache.spark.SparkContext
import org.apache.spark.rdd.RDD

/**
 * The leaky buffer paper's join job on two `key<TAB>value` texts: join them on the key, then consume every joined
 * pair into the output digest, so no side can win by producing pairs lazily. `joinWith` picks the operator: Spark's
 * `join`, or the leaky one. The digest is what stock and plugin runs are compared on.
 */
object JoinWorkload {
  type Join = (RDD[(String, String)], RDD[(String, String)], Int) => RDD[(String, (String, String))]

  val stockJoin: Join = (left, right, reduceTasks) => left.join(right, reduceTasks)

  def run(
      sc: SparkContext,
      left: String,
      right: String,
      reduceTasks: Int,
      joinWith: Join
  ): OutputDigest =
    joinWith(KeyValueText.pairs(sc, left), KeyValueText.pairs(sc, right), reduceTasks)
      .mapPartitions { joined =>
        val digest = new OutputDigest.Builder
        joined.foreach { case (key, (v, w)) => digest.pair(key, v, w) }
        Iterator.single(digest.result)
      }
      .fold(OutputDigest.Empty)(_ + _)
}
