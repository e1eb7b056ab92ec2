package org.apache.spark.shuffle.levee

import com.esotericsoftware.kryo.KryoException
import org.apache.spark.{SparkConf, SparkException}

/**
 * The members that differ between the Spark lines the leaky buffer supports; this copy is the Spark 3.5 one,
 * src/main/spark-4.0 and src/main/spark-4.1 hold the Spark 4 ones. The build's `levee.spark.shim` property picks the directory. Each
 * member is a one-liner: anything longer belongs in the shared code.
 */
object SparkLine {

  /** Spark 3.5's KryoSerializerInstance wraps the overflow without an error class; its cause says what it was. */
  def isKryoBufferOverflow(e: SparkException): Boolean = e.getCause match {
    case k: KryoException => k.getMessage != null && k.getMessage.startsWith("Buffer overflow")
    case _                => false
  }

  /** Spark 3.5 has no byte threshold for forced spills (4.1 added one): never reached, as 4.1's default. */
  def forcedSpillBytes(conf: SparkConf): Long = Long.MaxValue
}
