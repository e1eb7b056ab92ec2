package dev.levee.leaky.spill

import dev.levee.leaky.table.RecordVisitor

/**
 * A run of keys in ascending key-hash order, each with its buffered records. Spill files and
 * the in-memory table are both read through this, so one merge handles them alike.
 */
trait SortedGroupSource[K] {
  def hasCurrent: Boolean
  def currentHash: Int
  def currentKey: K

  /** Visits the current key's records; at most once per key. */
  def visitCurrent(visitor: RecordVisitor): Unit
  def advance(): Unit
  def close(): Unit
}
