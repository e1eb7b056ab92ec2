package dev.levee.bench.spark

import scala.collection.mutable

import org.apache.spark.{HashPartitioner, SparkContext}
import org.apache.spark.rdd.RDD

/**
 * The other aggregations a shuffle manager sees, on the same `key<TAB>value` text as the groupBy job, each ending in
 * the same order-free digest of its whole output (every value consumed):
 *  - `reduce`: word-count-like, many records per key: a count per three-digit key prefix (900 keys), summed with a
 *    map-side combine;
 *  - `aggregate`: a set of values per key (aggregateByKey with a mutable set as the zero value): a combiner that grows;
 *  - `combine`: combineByKey with `mapSideCombine = false`, a list of values per key;
 *  - `distinct`: the distinct values.
 */
object AggregationWorkloads {
  val Ops: Seq[String] = Seq("reduce", "aggregate", "combine", "distinct")

  def run(op: String, sc: SparkContext, input: String, reduceTasks: Int): OutputDigest =
    run(op, KeyValueText.pairs(sc, input), reduceTasks)

  def run(op: String, pairs: RDD[(String, String)], reduceTasks: Int): OutputDigest =
    op match {
      case "reduce"    => reduce(pairs, reduceTasks)
      case "aggregate" => aggregate(pairs, reduceTasks)
      case "combine"   => combine(pairs, reduceTasks)
      case "distinct"  => distinct(pairs, reduceTasks)
      case other       =>
        throw new IllegalArgumentException(
          s"no aggregation '$other'; allowed: ${Ops.mkString(", ")}"
        )
    }

  private def reduce(pairs: RDD[(String, String)], r: Int): OutputDigest =
    fold(pairs.map { case (k, _) => (k.take(3), 1L) }.reduceByKey(_ + _, r)) { (d, kv) =>
      d.keyed(kv._1, kv._2)
    }

  private def aggregate(pairs: RDD[(String, String)], r: Int): OutputDigest =
    fold(pairs.aggregateByKey(mutable.HashSet.empty[String], r)(_ += _, _ ++= _)) { (d, kv) =>
      kv._2.foreach(d.value(kv._1, _)); d.group(kv._1, kv._2.size)
    }

  private def combine(pairs: RDD[(String, String)], r: Int): OutputDigest =
    fold(
      pairs.combineByKey[List[String]](
        (v: String) => List(v),
        (l: List[String], v: String) => v :: l,
        (a: List[String], b: List[String]) => a ::: b,
        new HashPartitioner(r),
        mapSideCombine = false
      )
    ) { (d, kv) => kv._2.foreach(d.value(kv._1, _)); d.group(kv._1, kv._2.size) }

  private def distinct(pairs: RDD[(String, String)], r: Int): OutputDigest =
    fold(pairs.map(_._2).distinct(r))((d, v) => d.value("", v))

  private def fold[T](rdd: RDD[T])(add: (OutputDigest.Builder, T) => Unit): OutputDigest =
    rdd
      .mapPartitions { it =>
        val digest = new OutputDigest.Builder
        it.foreach(add(digest, _))
        Iterator.single(digest.result)
      }
      .fold(OutputDigest.Empty)(_ + _)
}
