package dev.levee.hurricane.driver

import scala.collection.mutable

/**
 * How many task slots the application has and how many are busy, from the listener bus. Its view lags the
 * scheduler by the bus's delay, so "idle" means idle a moment ago: a clone started on it may queue briefly, and the
 * owner gives it up if it has not started by the time the owner needs its partial.
 */
private[hurricane] final class SlotTracker(taskCpus: Int) {
  require(taskCpus >= 1)
  private val coresByExecutor = mutable.Map.empty[String, Int]
  private val running = mutable.Set.empty[Long]

  def executorAdded(id: String, cores: Int): Unit = synchronized { coresByExecutor(id) = cores }
  def executorRemoved(id: String): Unit = synchronized { coresByExecutor -= id }
  def taskStarted(attempt: Long): Unit = synchronized { running += attempt }
  def taskEnded(attempt: Long): Unit = synchronized { running -= attempt }

  def slots: Int = synchronized { coresByExecutor.valuesIterator.map(_ / taskCpus).sum }
  def idleSlots: Int = synchronized { math.max(0, slots - running.size) }
}
