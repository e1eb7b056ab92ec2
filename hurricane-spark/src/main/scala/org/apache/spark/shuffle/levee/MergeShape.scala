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

  /**
   * The owner's output from its own streams and then its clones' partials (each of the form `partial` gives);
   * `partials` is asked for once the owner's own streams are read.
   */
  def output(
      own: Iterator[Iterator[Product2[K, C]]],
      partials: => Iterator[Iterator[Product2[K, C]]],
      context: TaskContext
  ): Iterator[Product2[K, C]]

  override final def partial(
      partition: Int,
      streams: Iterator[Iterator[Product2[K, C]]],
      context: TaskContext
  ): Iterator[Product2[K, C]] = partial(streams, context)

  override final def output(
      partition: Int,
      own: Iterator[Iterator[Product2[K, C]]],
      partials: => Iterator[Iterator[Product2[K, C]]],
      context: TaskContext
  ): Iterator[Product2[K, C]] = output(own, partials, context)

  /** The delegate's read of a whole partition is already aggregated (and sorted): it is the answer. */
  override def whole(
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
  def of[K, C](
      dep: ShuffleDependency[K, _, C],
      ownerByBucket: Boolean = false
  ): Option[MergeShape[K, C]] =
    (dep.aggregator, dep.keyOrdering) match {
      case (Some(agg), ordering) =>
        Some(
          new Aggregating(
            agg,
            ordering,
            dep.serializer,
            dep.mapSideCombine,
            RawDependency.readable(dep),
            ownerByBucket
          )
        )
      case (None, Some(ordering)) => Some(new Sorting[K, C](ordering))
      case _                      => None
    }

  /**
   * reduceByKey, aggregateByKey, combineByKey, foldByKey, groupByKey, distinct, countByKey: partials are combined
   * values per key and merge with `mergeCombiners` (groupByKey's concatenates the groups), then are sorted when the
   * dependency also orders keys.
   *
   * A worker reads its chunks raw where the delegate's blocks allow ([[RawDependency]]: the map outputs' values,
   * or their combiners after a map-side combine) and combines them once, in one sorter; its partial comes out in
   * [[HashBuckets]] order, and the owner merges its own partial with its clones' one bucket at a time: the merge
   * holds one bucket's keys, never the partition's. So a worker spills only for its own share of the partition,
   * as a task of a partition that size would, and the owner does not gather the whole output again (one combine
   * of everything would spill about as much as the unsplit task).
   */
  final class Aggregating[K, C](
      agg: Aggregator[K, _, C],
      ordering: Option[Ordering[K]],
      serializer: Serializer,
      mapSideCombine: Boolean,
      override val readsRaw: Boolean,
      ownerByBucket: Boolean = false,
      keys: Option[KeyReport] = None
  ) extends MergeShape[K, C] {
    private val buckets = new HashBuckets(HashBuckets.Count)

    override def countingInto(report: KeyReport): Aggregating[K, C] =
      new Aggregating(
        agg,
        ordering,
        serializer,
        mapSideCombine,
        readsRaw,
        ownerByBucket,
        Some(report)
      )

    /**
     * Only where the streams are the map outputs' records: a read through the dependency (the leaky manager's
     * grouped blocks) hands over each window already combined, about one record per key, so keys per record would
     * say nothing about the work behind them; such bags keep the thesis's rule.
     */
    override def mergesByKey: Boolean = readsRaw

    /** Combines combiners with combiners: what the partials hold, and combined reads. */
    private val combiners =
      new Aggregator[K, C, C](c => c, agg.mergeCombiners, agg.mergeCombiners)

    /** What a worker's streams hold: values, unless they were combined on the map side or by the delegate. */
    private def streamAggregator: Aggregator[K, Any, C] = {
      val plain =
        (if (readsRaw && !mapSideCombine) agg else combiners).asInstanceOf[Aggregator[K, Any, C]]
      keys.fold(plain)(_.counting(plain))
    }

    override def partial(
        s: Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] = {
      val sorter = new ExternalSorter[K, Any, C](
        context,
        aggregator = Some(streamAggregator),
        partitioner = Some(buckets),
        serializer = serializer
      )
      sorter.insertAllAndUpdateMetrics(s.flatten.asInstanceOf[Iterator[Product2[K, Any]]])
    }

    /** One read of the whole partition: combined and sorted here when raw, as the stock reader would. */
    override def whole(
        partition: Int,
        stream: Iterator[Product2[K, C]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      if (!readsRaw) stream
      else {
        val combined = streamAggregator
          .combineValuesByKey(stream.asInstanceOf[Iterator[Product2[K, Any]]], context)
          .asInstanceOf[Iterator[Product2[K, C]]]
        sorted(combined, context)
      }

    /**
     * The owner combines its own streams as the stock reader does (Spark's `ExternalAppendOnlyMap`, keyed by the
     * key alone), so that a partition no clone joined costs what it costs without Hurricane: a sorter partitioned
     * by bucket keys every entry by (bucket, key) and, spilling, measured 1.43x slower than stock on a hot wide
     * aggregation. Only when clones did come is its combined partial put in bucket order (one pass that buffers
     * and spills by bucket, no combining) and merged with theirs a bucket at a time. With the merge weighed, clones
     * of an aggregation come only where partials are small, so that pass is small too.
     *
     * `ownerByBucket` (the merge not weighed, `clone.mergeCost` 0): wide aggregations get clones, and the owner's
     * partial is about as large as its input; it then combines by bucket from the start, as a clone does, so that
     * it spills only for its share instead of spilling its share and then its partial again.
     */
    override def output(
        own: Iterator[Iterator[Product2[K, C]]],
        partials: => Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] = {
      // The owner's streams are read and combined (eagerly) before the clones are asked about.
      val mine =
        if (ownerByBucket) partial(own, context)
        else
          streamAggregator
            .combineValuesByKey(own.flatten.asInstanceOf[Iterator[Product2[K, Any]]], context)
            .asInstanceOf[Iterator[Product2[K, C]]]
      val theirs = partials.toVector
      val merged =
        if (theirs.isEmpty) mine
        else {
          val ordered = if (ownerByBucket) mine else inBucketOrder(mine, context)
          buckets.merge[K, C](ordered +: theirs, combineByKey(context))
        }
      sorted(merged, context)
    }

    private def inBucketOrder(
        records: Iterator[Product2[K, C]],
        context: TaskContext
    ): Iterator[Product2[K, C]] = {
      val sorter =
        new ExternalSorter[K, C, C](context, partitioner = Some(buckets), serializer = serializer)
      sorter.insertAllAndUpdateMetrics(records)
    }

    private def sorted(
        records: Iterator[Product2[K, C]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      ordering match {
        case None      => records
        case Some(ord) =>
          val sorter =
            new ExternalSorter[K, C, C](context, ordering = Some(ord), serializer = serializer)
          sorter.insertAllAndUpdateMetrics(records)
      }

    private def combineByKey(context: TaskContext)(
        records: Iterator[Product2[K, C]]
    ): Iterator[Product2[K, C]] =
      agg.combineCombinersByKey(records, context).asInstanceOf[Iterator[Product2[K, C]]]
  }

  /** sortByKey and other ordered reads without an aggregator: every stream is sorted, so a k-way merge joins them. */
  final class Sorting[K, C](ordering: Ordering[K]) extends MergeShape[K, C] {
    override def partial(
        s: Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      mergeSorted(s.toVector, ordering)

    // `++` takes its right side by name: the clones are asked about only once the owner's own runs are read.
    override def output(
        own: Iterator[Iterator[Product2[K, C]]],
        partials: => Iterator[Iterator[Product2[K, C]]],
        context: TaskContext
    ): Iterator[Product2[K, C]] =
      mergeSorted((own ++ partials).toVector, ordering)
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
