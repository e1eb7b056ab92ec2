package dev.levee.bench.spark

import org.apache.spark.SparkContext
import org.apache.spark.rdd.RDD

/** The paper's input format: one `key<TAB>value` record per line (a line with no tab is a key with an empty value). */
object KeyValueText {
  def pairs(sc: SparkContext, input: String): RDD[(String, String)] =
    sc.textFile(input).map { line =>
      val tab = line.indexOf('\t')
      if (tab < 0) (line, "") else (line.substring(0, tab), line.substring(tab + 1))
    }
}
