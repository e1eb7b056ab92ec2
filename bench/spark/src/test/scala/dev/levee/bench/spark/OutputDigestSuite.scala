package dev.levee.bench.spark

import org.scalatest.funsuite.AnyFunSuite

class OutputDigestSuite extends AnyFunSuite {
  private type Groups = Seq[(String, Seq[String])]

  private def digestOf(tasks: Seq[Groups]): OutputDigest =
    tasks
      .map { groups =>
        val b = new OutputDigest.Builder
        groups.foreach { case (k, vs) => vs.foreach(b.value(k, _)); b.group(k, vs.size) }
        b.result
      }
      .foldLeft(OutputDigest.Empty)(_ + _)

  private val output: Groups =
    Seq("a" -> Seq("x", "yy", ""), "b" -> Seq("x"), "c" -> Seq("zzz", "zzz"))

  test("the digest ignores the order of groups, of values and of tasks") {
    val shuffled =
      Seq(Seq("c" -> Seq("zzz", "zzz"), "a" -> Seq("", "x", "yy")), Seq("b" -> Seq("x")))
    assert(digestOf(Seq(output)) == digestOf(shuffled))
    assert(digestOf(Seq(output)) == OutputDigest(3, 6, 10, digestOf(Seq(output)).checksum))
  }

  test("a lost, duplicated or moved value, or a split group, changes the digest") {
    val expected = digestOf(Seq(output))
    val lost = Seq("a" -> Seq("x", "yy"), "b" -> Seq("x"), "c" -> Seq("zzz", "zzz"))
    val duplicated = Seq("a" -> Seq("x", "yy", "", "x"), "b" -> Seq("x"), "c" -> Seq("zzz", "zzz"))
    val moved = Seq("a" -> Seq("yy", ""), "b" -> Seq("x", "x"), "c" -> Seq("zzz", "zzz"))
    val split = Seq(
      Seq("a" -> Seq("x"), "b" -> Seq("x"), "c" -> Seq("zzz", "zzz")),
      Seq("a" -> Seq("yy", ""))
    )
    Seq(Seq(lost), Seq(duplicated), Seq(moved), split).foreach(wrong =>
      assert(digestOf(wrong) != expected, wrong)
    )
  }

  test("joined pairs: swapping the two sides of a pair changes the digest") {
    def pairs(ps: Seq[(String, String, String)]) = {
      val b = new OutputDigest.Builder
      ps.foreach { case (k, v, w) => b.pair(k, v, w) }
      b.result
    }
    assert(
      pairs(Seq(("k", "v", "w"), ("k", "v2", "w"))) == pairs(Seq(("k", "v2", "w"), ("k", "v", "w")))
    )
    assert(pairs(Seq(("k", "v", "w"))) != pairs(Seq(("k", "w", "v"))))
  }
}
