package dev.levee.leaky.table

/**
 * Turns one key's buffered records into its emitted result. A builder lives only while its
 * group is emitted, which is the point: value objects exist briefly, one group at a time.
 */
trait GroupBuilder[R] extends RecordVisitor {
  def result(): R
}
