package org.apache.spark.shuffle.levee

import org.apache.spark.{SparkConf, SparkException}

/**
 * The members that differ between the Spark lines the leaky buffer supports; this copy is for Spark 4.0,
 * src/main/spark-4.1 and src/main/spark-3.5 hold the others. The build's `levee.spark.shim` property picks the
 * directory. Each member is a one-liner: anything longer belongs in the shared code.
 */
object SparkLine {

  /** Spark 4 names this failure by its error condition. */
  def isKryoBufferOverflow(e: SparkException): Boolean = e.getCondition == "KRYO_BUFFER_OVERFLOW"

  /** Spark 4.0 has no byte threshold for forced spills (4.1 added one): never reached, as 4.1's default. */
  def forcedSpillBytes(conf: SparkConf): Long = Long.MaxValue
}
