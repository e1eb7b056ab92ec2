package dev.levee.bench.spark.hurricane

import org.scalatest.funsuite.AnyFunSuite

class WarmUpSuite extends AnyFunSuite {

  /** Each arm's job returns its series' next time, so a test can script any warm-up slope. */
  private def scripted(series: Map[String, Seq[Double]]): String => Double = {
    val next = collection.mutable.Map(series.keys.map(_ -> 0).toSeq: _*)
    arm => { val t = series(arm)(next(arm)); next(arm) += 1; t }
  }

  test(
    "an arm settles when its last two times agree within the tolerance of the smaller, not before minRounds"
  ) {
    val w = WarmUp(tolerance = 0.05, minRounds = 3)
    assert(!w.settled(Seq(2.0, 2.0)), "two rounds are fewer than minRounds")
    assert(w.settled(Seq(3.8, 2.09, 2.0)))
    assert(!w.settled(Seq(3.8, 2.2, 2.0)), "2.2 against 2.0 is 10 % apart")
    assert(w.settled(Seq(3.8, 2.0, 2.09)), "the rule is symmetric")
  }

  test("rounds run until every arm has settled, one job per arm per round") {
    val outcome = WarmUp().run(Seq("stock", "dynamic"))(
      scripted(
        Map(
          "stock" -> Seq(3.8, 3.0, 2.4, 2.35, 2.3, 9.9),
          "dynamic" -> Seq(3.9, 3.2, 2.6, 2.2, 2.15, 9.9)
        )
      )
    )
    assert(outcome.settled)
    assert(outcome.rounds == 5, "dynamic settles only in its fifth round, so stock runs five too")
    assert(
      outcome.times("stock") == Seq(3.8, 3.0, 2.4, 2.35, 2.3),
      "a settled arm still runs in every round"
    )
    assert(outcome.times("dynamic") == Seq(3.9, 3.2, 2.6, 2.2, 2.15))
  }

  test("a slope that never settles is cut at maxRounds and said to be unsettled") {
    val slope = Iterator.iterate(4.0)(_ * 0.9)
    val outcome = WarmUp(maxRounds = 6).run(Seq("stock"))(_ => slope.next())
    assert(outcome.rounds == 6)
    assert(!outcome.settled)
    assert(outcome.describe.contains("NOT settled"))
  }

  test("bad bounds are refused with what is allowed") {
    val e = intercept[IllegalArgumentException](WarmUp(minRounds = 4, maxRounds = 3))
    assert(e.getMessage.contains("maxRounds (3) must be at least minRounds (4)"))
    intercept[IllegalArgumentException](WarmUp(tolerance = 0))
  }

  test("the exponents turn by one place per rep") {
    val s = Seq(0.0, 1.0, 2.0, 3.0)
    assert(HurricaneBenchSuite.rotated(s, 0) == s)
    assert(HurricaneBenchSuite.rotated(s, 1) == Seq(1.0, 2.0, 3.0, 0.0))
    assert(HurricaneBenchSuite.rotated(s, 5) == Seq(1.0, 2.0, 3.0, 0.0))
    assert(HurricaneBenchSuite.rotated(Seq.empty[Double], 3).isEmpty)
  }
}
