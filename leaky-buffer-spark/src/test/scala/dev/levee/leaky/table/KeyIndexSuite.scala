package dev.levee.leaky.table

import org.scalatest.funsuite.AnyFunSuite

/** The key index: dense ids in first-seen order, through growth, hash collisions, negative hashes and a null key. */
class KeyIndexSuite extends AnyFunSuite {

  /** Equal hash codes for different keys, and negative ones: every slot probe must compare keys, not hashes. */
  private final case class Colliding(id: Int) {
    override def hashCode(): Int = if (id % 2 == 0) -7 else Int.MinValue
  }

  test("each key keeps the id it got first, through growth and full hash collisions") {
    val index = new KeyIndex[Any]
    val keys: Seq[Any] = (0 until 5000).map(i => s"k$i") ++ (0 until 300).map(Colliding(_)) ++ Seq(
      null,
      -1,
      Long.MinValue
    )
    keys.zipWithIndex.foreach { case (k, i) => assert(index.idOf(k) == i, s"first sight of $k") }
    keys.zipWithIndex.reverse.foreach { case (k, i) =>
      assert(index.idOf(k) == i, s"second sight of $k")
    }
    assert(index.size == keys.size)
    keys.indices.foreach(i =>
      assert(index.key(i) == keys(i) && index.hash(i) == KeyIndex.hashOf(keys(i)))
    )
    val byHash = index.idsByHash().map(index.hash).toSeq
    assert(byHash == byHash.sorted)
  }

  test("a recycled index hands out ids from 0 again and forgets the old keys") {
    val index = new KeyIndex[String]
    (0 until 1000).foreach(i => index.idOf(s"a$i"))
    index.recycle()
    assert(index.size == 0)
    assert(index.idOf("b") == 0 && index.idOf("a5") == 1 && index.idOf("b") == 0)
  }
}
