package org.apache.spark.shuffle.levee

import java.lang.management.ManagementFactory
import javax.management.ObjectName

/** Live instance counts from HotSpot's GC.class_histogram (a full GC runs first). */
object HeapHistogram {
  def instances(className: String): Long = {
    val server = ManagementFactory.getPlatformMBeanServer
    val histogram = server
      .invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"),
        "gcClassHistogram",
        Array[AnyRef](Array.empty[String]),
        Array(classOf[Array[String]].getName)
      )
      .asInstanceOf[String]
    histogram.linesIterator
      .map(_.trim.split("\\s+"))
      .collectFirst {
        case cols if cols.length >= 4 && cols(3) == className => cols(1).toLong
      }
      .getOrElse(0L)
  }
}
