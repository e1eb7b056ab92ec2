package org.apache.spark.shuffle.levee

import org.apache.spark.{Dependency, TaskContext}

/**
 * What the workers of one bag compute and how the owner combines it. Every worker (the owner and each clone) reads
 * some of the partition's chunks as streams of the dependency's records (`Product2[K, C]`) and turns them into a
 * partial; the owner's output is its own partial merged with the clones'. A shape must meet the split contract:
 * for any split of the partition's chunks into A and B, f(A ∪ B) = merge(f(A), f(B)).
 *
 * A shape is serialized into each clone's task, so it holds only what a task may carry (functions, orderings,
 * dependencies), never driver state.
 */
private[levee] trait BagShape[K, C, Out] extends Serializable {

  /** A worker's partial from its streams; `partition` is the reduce partition the bag belongs to. */
  def partial(
      partition: Int,
      streams: Iterator[Iterator[Product2[K, C]]],
      context: TaskContext
  ): Iterator[Out]

  /**
   * The owner's output: its own streams, then its clones' partials. `partials` is asked for only once the owner's
   * own streams have been pulled as far as the merge needs; asking for it waits until no clone is running.
   */
  def output(
      partition: Int,
      own: Iterator[Iterator[Product2[K, C]]],
      partials: => Iterator[Iterator[Out]],
      context: TaskContext
  ): Iterator[Out]

  /** The output when one read of the delegate covers the whole partition and no clone can exist. */
  def whole(partition: Int, stream: Iterator[Product2[K, C]], context: TaskContext): Iterator[Out] =
    output(partition, Iterator.single(stream), Iterator.empty, context)

  /**
   * Whether the streams handed to this shape are the map outputs' records as written ([[RawDependency]]) rather
   * than the delegate's read through the dependency (combined and sorted per read, as a stock reader returns).
   */
  def readsRaw: Boolean = false

  /**
   * Whether the merge takes every key of every partial again (an aggregation's), so that what a clone adds to its
   * owner's merge grows with the distinct keys it reads: workers then report their keys to the clone policy.
   */
  def mergesByKey: Boolean = false

  /**
   * This shape for one worker whose combine counts into `keys` (what it reports to the clone policy); a shape
   * that does not merge by key has nothing to count and is itself.
   */
  def countingInto(keys: KeyReport): BagShape[K, C, Out] = this

  /** Shuffles a worker reads besides the bag's own (a join's build side); a clone declares them too. */
  def sideDependencies: Seq[Dependency[_]] = Nil
}
