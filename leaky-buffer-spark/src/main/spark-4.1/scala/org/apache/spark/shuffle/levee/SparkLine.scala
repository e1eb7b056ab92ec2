package org.apache.spark.shuffle.levee

import org.apache.spark.{SparkConf, SparkException}
import org.apache.spark.internal.config

/**
 * The members that differ between the Spark lines the leaky buffer supports; this copy is for Spark 4.1 and 4.2,
 * src/main/spark-4.0 and src/main/spark-3.5 hold the others. The build's `levee.spark.shim` property picks the
 * directory. Each member is a one-liner: anything longer belongs in the shared code.
 */
object SparkLine {

  /** Spark 4 names this failure by its error condition. */
  def isKryoBufferOverflow(e: SparkException): Boolean = e.getCondition == "KRYO_BUFFER_OVERFLOW"

  /** `spark.shuffle.spill.maxSizeInBytesForSpillThreshold` (new in Spark 4.1). */
  def forcedSpillBytes(conf: SparkConf): Long =
    conf.get(config.SHUFFLE_SPILL_MAX_SIZE_FORCE_SPILL_THRESHOLD)
}
