package dev.levee.bench.spark

import org.apache.spark.SparkContext

/**
 * The leaky buffer paper's groupByKey job on `key<TAB>value` text: group every value by key, then consume every
 * value of every group into the output digest, so neither side can win by building groups lazily. The digest is
 * what stock and plugin runs are compared on.
 */
object GroupByWorkload {
  def run(sc: SparkContext, input: String, reduceTasks: Int): OutputDigest =
    KeyValueText
      .pairs(sc, input)
      .groupByKey(reduceTasks)
      .mapPartitions { groups =>
        val digest = new OutputDigest.Builder
        groups.foreach { case (key, values) =>
          var n = 0L
          values.foreach { v => n += 1; digest.value(key, v) }
          digest.group(key, n)
        }
        Iterator.single(digest.result)
      }
      .fold(OutputDigest.Empty)(_ + _)
}
