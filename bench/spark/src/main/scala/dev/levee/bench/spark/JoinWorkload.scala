package dev.levee.bench.spark

import org.apache.spark.SparkContext
import org.apache.spark.rdd.RDD

/**
 * The leaky buffer paper's join job on two `key<TAB>value` texts: join them on the key, then consume every joined
 * pair of every key (count, total length and an order-free checksum), so no side can win by producing pairs lazily.
 * `joinWith` picks the operator: Spark's `join`, or the leaky one. The per-key digest is what stock and plugin runs
 * are compared on.
 */
object JoinWorkload {
  final case class Digest(pairs: Long, bytes: Long, checksum: Long)

  type Join = (RDD[(String, String)], RDD[(String, String)], Int) => RDD[(String, (String, String))]

  val stockJoin: Join = (left, right, reduceTasks) => left.join(right, reduceTasks)

  def run(sc: SparkContext, left: String, right: String, reduceTasks: Int, joinWith: Join): Map[String, Digest] =
    joinWith(pairs(sc, left), pairs(sc, right), reduceTasks)
      .mapPartitions { joined =>
        // One digest per key, built while streaming: pairs of a key arrive together from both join paths, but a
        // map keeps this correct whatever the order.
        val digests = new java.util.HashMap[String, Array[Long]]()
        joined.foreach { case (key, (v, w)) =>
          var d = digests.get(key)
          if (d == null) { d = new Array[Long](3); digests.put(key, d) }
          d(0) += 1
          d(1) += v.length + w.length
          d(2) += (v.hashCode.toLong * 31 + w.hashCode) * 0x9E3779B97F4A7C15L
        }
        val out = digests.entrySet().iterator()
        Iterator.continually(out).takeWhile(_.hasNext).map(_.next()).map(e => e.getKey -> Digest(e.getValue()(0),
          e.getValue()(1), e.getValue()(2)))
      }
      .collect()
      .toMap

  private def pairs(sc: SparkContext, input: String): RDD[(String, String)] =
    sc.textFile(input).map { line =>
      val tab = line.indexOf('\t')
      if (tab < 0) (line, "") else (line.substring(0, tab), line.substring(tab + 1))
    }
}
