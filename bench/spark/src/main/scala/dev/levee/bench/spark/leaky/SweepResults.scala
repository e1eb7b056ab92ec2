package dev.levee.bench.spark.leaky

/**
 * The figures of one sweep point (an operator on a dataset at one GC, heap and reduce-task count) for one variant
 * and repetition, and the summaries the suite derives from them: medians over repetitions, and per curve the
 * smallest heap whose median reduce time stays within 5% of stock's best.
 */
final case class PointKey(
    op: String,
    dataset: String,
    gc: String,
    memoryMb: Int,
    reduceTasks: Int
) {

  /** The same curve at any heap. */
  def curve: CurveKey = CurveKey(op, dataset, gc, reduceTasks)
}

final case class CurveKey(op: String, dataset: String, gc: String, reduceTasks: Int)

final case class PointRun(
    key: PointKey,
    variant: String,
    repetition: Int,
    dmr: Double,
    failed: Boolean,
    failure: String,
    jobSeconds: Double,
    reduceSeconds: Double,
    gcShare: Double,
    peakMemoryBytes: Long,
    spilledBytes: Long,
    outputMismatch: Boolean,
    reduceTimes: ReduceStageListener.TaskTimes = ReduceStageListener.TaskTimes.Zero
)

/** Medians over the successful repetitions of one point and variant; `None` figures when every repetition failed. */
final case class PointSummary(
    key: PointKey,
    variant: String,
    dmr: Double,
    runs: Int,
    failures: Int,
    reduceSeconds: Option[Double],
    gcShare: Option[Double],
    peakMemoryBytes: Option[Double],
    mismatches: Int
)

object SweepResults {

  val Tolerance = 0.05

  def median(xs: Seq[Double]): Option[Double] = {
    val s = xs.sorted
    if (s.isEmpty) None
    else if (s.size % 2 == 1) Some(s(s.size / 2))
    else Some((s(s.size / 2 - 1) + s(s.size / 2)) / 2)
  }

  def summarize(runs: Seq[PointRun]): Seq[PointSummary] =
    runs
      .groupBy(r => (r.key, r.variant))
      .toSeq
      .map { case ((key, variant), rs) =>
        val ok = rs.filterNot(_.failed)
        PointSummary(
          key,
          variant,
          rs.head.dmr,
          rs.size,
          rs.count(_.failed),
          median(ok.map(_.reduceSeconds)),
          median(ok.map(_.gcShare)),
          median(ok.map(_.peakMemoryBytes.toDouble)),
          rs.count(_.outputMismatch)
        )
      }
      .sortBy(s =>
        (s.key.op, s.key.dataset, s.key.gc, s.key.reduceTasks, s.key.memoryMb, s.variant)
      )

  /** Stock's best median reduce time on a curve, over all heaps where stock succeeded every time. */
  def stockBest(summaries: Seq[PointSummary], curve: CurveKey, stock: String): Option[Double] =
    summaries
      .filter(s => s.key.curve == curve && s.variant == stock && s.failures == 0)
      .flatMap(_.reduceSeconds)
      .minOption

  /**
   * The smallest heap at which `variant` never failed and its median reduce time is within 5% of stock's best on
   * the same curve; `None` if no heap qualifies (or stock never succeeded).
   */
  def smallestMemoryWithinTolerance(
      summaries: Seq[PointSummary],
      curve: CurveKey,
      variant: String,
      stock: String
  ): Option[Int] =
    stockBest(summaries, curve, stock).flatMap { best =>
      summaries
        .filter(s => s.key.curve == curve && s.variant == variant && s.failures == 0)
        .filter(_.reduceSeconds.exists(_ <= best * (1 + Tolerance)))
        .map(_.key.memoryMb)
        .minOption
    }
}
