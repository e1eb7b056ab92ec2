package dev.levee.bench.spark

import org.apache.spark.SparkContext
import org.apache.spark.sql.{DataFrame, SparkSession}
import org.apache.spark.sql.functions.{coalesce, col, collect_list, lit, split, try_element_at}

/**
 * The leaky buffer's peer a Spark expert would reach for first: the same groupBy and join jobs written with
 * DataFrames, whose aggregation and join keep rows in Tungsten's binary format instead of one object per value.
 * Same `key<TAB>value` input, same number of reduce tasks (`spark.sql.shuffle.partitions`), and the same final
 * action: every value consumed and folded into the same order-free digest as the RDD jobs, so the two must agree.
 *
 * The session is planned for a like-for-like reduce stage: adaptive execution off (it would coalesce the reduce
 * tasks and change the DMR) and no broadcast join (the right side, a tenth of the left, is under the 10 MB broadcast
 * threshold, and a broadcast join has no reduce side at all). [[SessionSettings]] holds those settings.
 */
object DataFrameWorkloads {

  val SessionSettings: Map[String, String] = Map(
    "spark.sql.adaptive.enabled" -> "false",
    "spark.sql.autoBroadcastJoinThreshold" -> "-1"
  )

  def session(sc: SparkContext, reduceTasks: Int): SparkSession = {
    val spark = SparkSession.builder().config(sc.getConf).getOrCreate()
    require(spark.sparkContext eq sc, "the DataFrame jobs must run on the bench's own context")
    spark.conf.set("spark.sql.shuffle.partitions", reduceTasks.toString)
    spark
  }

  /** `key<TAB>value` lines as columns k and v, parsed like [[KeyValueText]] (no tab: the whole line, empty v). */
  def pairs(spark: SparkSession, input: String): DataFrame = {
    val parts = split(col("value"), "\t", 2)
    spark.read
      .text(input)
      .select(parts.getItem(0).as("k"), coalesce(try_element_at(parts, lit(2)), lit("")).as("v"))
  }

  /** groupBy("k").agg(collect_list("v")), every value consumed. */
  def groupBy(sc: SparkContext, input: String, reduceTasks: Int): OutputDigest = {
    val spark = session(sc, reduceTasks)
    pairs(spark, input)
      .groupBy("k")
      .agg(collect_list("v").as("vs"))
      .rdd
      .mapPartitions { rows =>
        val digest = new OutputDigest.Builder
        rows.foreach { row =>
          val key = row.getString(0)
          val values = row.getSeq[String](1)
          values.foreach(digest.value(key, _))
          digest.group(key, values.size.toLong)
        }
        Iterator.single(digest.result)
      }
      .fold(OutputDigest.Empty)(_ + _)
  }

  /** An inner equi-join on k (a sort-merge join with broadcasts off), every pair consumed. */
  def join(sc: SparkContext, left: String, right: String, reduceTasks: Int): OutputDigest = {
    val spark = session(sc, reduceTasks)
    val l = pairs(spark, left).select(col("k"), col("v").as("lv"))
    val r = pairs(spark, right).select(col("k"), col("v").as("rv"))
    l.join(r, "k")
      .select("k", "lv", "rv")
      .rdd
      .mapPartitions { rows =>
        val digest = new OutputDigest.Builder
        rows.foreach(row => digest.pair(row.getString(0), row.getString(1), row.getString(2)))
        Iterator.single(digest.result)
      }
      .fold(OutputDigest.Empty)(_ + _)
  }
}
