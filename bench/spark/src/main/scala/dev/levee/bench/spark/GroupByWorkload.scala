package dev.levee.bench.spark

import org.apache.spark.SparkContext

/**
 * The leaky buffer paper's groupByKey job on `key<TAB>value` text: group every value by key, then consume every
 * value of every group (count, total length and an order-free checksum), so neither side can win by building groups
 * lazily. The per-key digest is what stock and plugin runs are compared on.
 */
object GroupByWorkload {
  final case class Digest(values: Long, bytes: Long, checksum: Long)

  def run(sc: SparkContext, input: String, reduceTasks: Int): Map[String, Digest] = {
    sc.textFile(input)
      .map { line =>
        val tab = line.indexOf('\t')
        if (tab < 0) (line, "") else (line.substring(0, tab), line.substring(tab + 1))
      }
      .groupByKey(reduceTasks)
      .map { case (key, values) =>
        var n = 0L
        var bytes = 0L
        var sum = 0L
        values.foreach { v =>
          n += 1
          bytes += v.length
          sum += v.hashCode.toLong * 0x9E3779B97F4A7C15L
        }
        (key, Digest(n, bytes, sum))
      }
      .collect()
      .toMap
  }
}
