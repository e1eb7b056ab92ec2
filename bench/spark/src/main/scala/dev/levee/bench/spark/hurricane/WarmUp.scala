package dev.levee.bench.spark.hurricane

import scala.collection.mutable

/**
 * Unmeasured rounds before a cluster's measured reps, until every arm's job time has settled.
 *
 * One fixed warm-up job was not enough on real CPU: after it, both arms still got faster for about five jobs (3.8 s
 * down to 2.1 s), so whichever exponent ran first in a rep (the uniform one) looked slow and every ratio to it
 * flattered. A round runs one uniform job per arm, so each arm's own read path for uniform partitions warms up
 * (with the default chunks a uniform partition is one window, read whole: the windowed read, the merge and the
 * clones are first run by the first skewed job); an arm has settled when its last two times agree within
 * `tolerance` of the smaller. Bounded: a cluster that never settles is measured
 * anyway after `maxRounds`, and its result lines say so.
 */
final case class WarmUp(tolerance: Double = 0.05, minRounds: Int = 3, maxRounds: Int = 12) {
  require(tolerance > 0 && tolerance < 1, s"warm-up tolerance must be in (0, 1), not $tolerance")
  require(minRounds >= 2, s"warm-up needs at least 2 rounds to compare, not $minRounds")
  require(
    maxRounds >= minRounds,
    s"warm-up maxRounds ($maxRounds) must be at least minRounds ($minRounds)"
  )

  /** Whether one arm's times, in the order they were taken, have settled. */
  def settled(times: Seq[Double]): Boolean =
    times.size >= minRounds && {
      val (a, b) = (times(times.size - 2), times.last)
      math.abs(a - b) <= tolerance * math.min(a, b)
    }

  /** Runs rounds of `job` (one per arm, in order) until every arm has settled or `maxRounds` were run. */
  def run(arms: Seq[String])(job: String => Double): WarmUp.Outcome = {
    val times = mutable.LinkedHashMap(arms.map(_ -> mutable.Buffer.empty[Double]): _*)
    var rounds = 0
    while (rounds < maxRounds && !(rounds > 0 && times.values.forall(t => settled(t.toSeq)))) {
      arms.foreach(a => times(a) += job(a))
      rounds += 1
    }
    val seen = times.map { case (a, t) => a -> t.toSeq }.toMap
    WarmUp.Outcome(rounds, seen.values.forall(settled), seen)
  }
}

object WarmUp {

  /** What the warm-up saw: its rounds, whether every arm settled, and each arm's times. */
  final case class Outcome(rounds: Int, settled: Boolean, times: Map[String, Seq[Double]]) {
    def describe: String =
      s"$rounds rounds, ${if (settled) "settled" else "NOT settled (measured anyway)"}: " +
        times.toSeq
          .sortBy(_._1)
          .map { case (a, t) => s"$a ${t.map(x => f"$x%.2f").mkString(" ")} s" }
          .mkString("; ")
  }
}
