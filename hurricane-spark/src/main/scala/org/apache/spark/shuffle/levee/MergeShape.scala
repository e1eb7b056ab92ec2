package org.apache.spark.shuffle.levee

import scala.collection.mutable

import org.apache.spark.{Aggregator, ShuffleDependency, TaskContext}
import org.apache.spark.serializer.Serializer
import org.apache.spark.util.collection.ExternalSorter

/**
 * How partial reads of one reduce partition combine into what the stock reader would have returned. A merge must
 * meet the split contract: for any split of the partition's chunks into A and B, f(A ∪ B) = merge(f(A), f(B)).
 * Each stream handed to a shape is a read of some chunks by the delegate reader (already aggregated and, with a
 * key ordering, sorted), or a clone's partial of the same form.
 */
private[levee] sealed trait MergeShape[K, C] extends BagShape[K, C, Product2[K, C]] {

  /** A clone's partial from its own streams. */
  def partial(
      streams: Iterator[Iterator[Product2[K, C]]],
      context: TaskContext
  ): Iterator[Product2[K, C]]

  /** The owner's output from its own streams followed by its clones' partials, all of one form. */
  def output(
      streams: Iterator[Iterator[Product2[K, C]]],
      context: TaskContext
  ): Iterator[Product2[K, C]]

  override final def partial(
      partition: Int,
      streams: Iterator[Iterator[Product2[K, C]]],
      context: TaskContext
  ): Iterator[Product2[K, C]] = partial(streams, context)

  // `++` takes its right side by name: the clones are asked about only once the owner's own reads are done.
  override final def output(
      partition: Int,
      own: Iterator[Iterator[Product2[K, C]]],
      partials: => Iterator[Iterator[Product2[K, C]]],
      context: TaskContext
  ): Iterator[Product2[K, C]] = output(own ++ partials, context)

  /** The delegate's read of a whole partition is already aggregated (and sorted): it is the answer. */
  override final def whole(
      partition: Int,
      stream: Iterator[Product2[K, C]],
      context: TaskContext
  ): Iterator[Product2[K, C]] = stream
}

private[levee] object MergeShape {

  /**
   * The shape of a dependency's reads, or None when a merge would buy nothing: a read with neither aggregator nor
   * ordering only moves records, so a clone could take no work off its owner (those reads pass through).
   */
  def of[K, C](dep: ShuffleDependency[K, _, C]): Option[MergeShape[K, C]] =
    (dep.aggregator, dep.keyOrdering) match {
      case (Some(agg), ordering)  => Some(new Aggregating(agg, ordering, dep.serializer))
      case (None, Some(ordering)) => Some(new Sorting[K, C](ordering))
      case _                      => None
    }

  /**
   * reduceByKey, aggregateByKey, combineByKey, foldByKey, groupByKey, distinct, countByKey: partials are combined
   * values per key and merge with `mergeCombiners` (groupByKey's concatenates the groups), then are sorted when the
   * dependency also orders keys.
   */
  final class Aggregating[K, C](
      agg: Aggregator[K, _, C],
      ordering: Option[Ordering[K]],
      serializer: Serializer
  ) extends MergeShape[K, C] {
    override def partial(
        s: Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      combine(s, context)

    override def output(
        s: Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      ordering match {
        case None      => combine(s, context)
        case Some(ord) =>
          val sorter =
            new ExternalSorter[K, C, C](context, ordering = Some(ord), serializer = serializer)
          sorter.insertAllAndUpdateMetrics(combine(s, context))
      }

    private def combine(
        s: Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      agg.combineCombinersByKey(s.flatten, context).asInstanceOf[Iterator[Product2[K, C]]]
  }

  /** sortByKey and other ordered reads without an aggregator: every stream is sorted, so a k-way merge joins them. */
  final class Sorting[K, C](ordering: Ordering[K]) extends MergeShape[K, C] {
    override def partial(
        s: Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      mergeSorted(s.toVector, ordering)

    override def output(
        s: Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      mergeSorted(s.toVector, ordering)
  }

  /** Merges sorted runs, smallest head first. */
  def mergeSorted[K, C](
      runs: Seq[Iterator[Product2[K, C]]],
      ordering: Ordering[K]
  ): Iterator[Product2[K, C]] = {
    val byHead = Ordering.by[BufferedIterator[Product2[K, C]], K](_.head._1)(ordering).reverse
    val heap = mutable.PriorityQueue.empty[BufferedIterator[Product2[K, C]]](byHead)
    runs.iterator.map(_.buffered).filter(_.hasNext).foreach(heap.enqueue(_))
    new Iterator[Product2[K, C]] {
      override def hasNext: Boolean = heap.nonEmpty
      override def next(): Product2[K, C] = {
        val run = heap.dequeue()
        val record = run.next()
        if (run.hasNext) heap.enqueue(run)
        record
      }
    }
  }
}
