package dev.levee.leaky.table

/**
 * Spills a table must make whatever memory it was granted: Spark's own `Spillable` collections honour
 * `spark.shuffle.spill.numElementsForceSpillThreshold` and `spark.shuffle.spill.maxSizeInBytesForSpillThreshold`,
 * which operators use to bound a task's memory and Spark's tests use to make a shuffle spill, so the leaky table
 * honours them the same way: more than `maxRecords` records since the last spill, or more than `maxBytes` held,
 * and the next insert spills first.
 */
final case class SpillTriggers(maxRecords: Long, maxBytes: Long) {
  require(maxRecords >= 0 && maxBytes >= 0, s"spill triggers must not be negative: $this")

  def due(recordsSinceSpill: Long, bytesHeld: Long): Boolean =
    recordsSinceSpill > maxRecords || bytesHeld > maxBytes
}

object SpillTriggers {

  /** Spark's defaults: neither threshold is ever reached. */
  val None: SpillTriggers = SpillTriggers(Int.MaxValue, Long.MaxValue)
}
