package dev.levee.leaky.memory

/** The most heap the leaky tables of one JVM may hold together right now. */
trait TableCeiling {
  def bytes: Long
}

object TableCeiling {
  val Unlimited: TableCeiling = new TableCeiling { override def bytes: Long = Long.MaxValue }
}
