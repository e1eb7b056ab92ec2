package dev.levee.leaky.aggregate

import dev.levee.leaky.LeakyConf

/**
 * Where a transparent shuffle read aggregates: in the leaky table, or combined on arrival by Spark's own map, exactly
 * as without Levee.
 *
 * `auto` (the default) sends to the table what grows with its values: aggregations without a map-side combine
 * (groupByKey, whose values are all kept) and those whose combiners are collections ([[CombinerShape.Growing]]);
 * map-side-combined collections first combine on arrival and move into the table only when they outgrow a bound
 * (the table costs them a serialization round trip that pays only under memory pressure).
 * Scalar combiners (reduceByKey's sums, countByKey, distinct, foldByKey of numbers) stay with Spark: they hold one
 * small object per key, as the table itself holds its keys, so the table could only add the cost of buffering each
 * map output's combiner as bytes and decoding it again. `table` sends every aggregation to the table.
 */
sealed trait AggregationRoute

object AggregationRoute {
  case object Table extends AggregationRoute
  case object OnArrival extends AggregationRoute

  /**
   * Map-side-combined collections: on arrival in Spark's own map while it is small, in the table once it is not
   * ([[ArrivalCombiner]]).
   */
  case object ArrivalThenTable extends AggregationRoute

  /**
   * The route, if the dependency alone decides it; `None` when the combiner's class does not say and the first
   * combiner must be looked at ([[ofFirstCombiner]]).
   */
  def ofDependency(
      mode: LeakyConf.AggregationMode,
      mapSideCombine: Boolean,
      combinerShape: => CombinerShape
  ): Option[AggregationRoute] = mode match {
    case LeakyConf.TableAggregation => Some(Table)
    case LeakyConf.AutoAggregation  =>
      combinerShape match {
        case CombinerShape.Growing => Some(if (mapSideCombine) ArrivalThenTable else Table)
        case CombinerShape.Fixed   => Some(OnArrival)
        case CombinerShape.Unknown => if (mapSideCombine) None else Some(Table)
      }
  }

  /** For a map-side-combined read whose combiner class is not telling: the first combiner decides. */
  def ofFirstCombiner(first: Option[Any]): AggregationRoute = first match {
    case Some(c) if CombinerShape.ofValue(c) == CombinerShape.Growing => ArrivalThenTable
    case _                                                            => OnArrival
  }
}
