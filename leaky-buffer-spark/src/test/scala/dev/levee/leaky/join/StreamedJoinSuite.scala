package dev.levee.leaky.join

import java.io.File
import java.nio.file.Files

import dev.levee.leaky.spill.{SpillFile, SpillStorage, Spool}
import dev.levee.leaky.value.{ValueDecoder, ValueEncoder}
import org.apache.spark.SparkConf
import org.apache.spark.serializer.JavaSerializer
import org.scalatest.funsuite.AnyFunSuite

class StreamedJoinSuite extends AnyFunSuite {
  private val dir = Files.createTempDirectory("leaky-join-test").toFile
  private val storage = new SpillStorage {
    override def create(): SpillFile =
      new SpillFile(File.createTempFile("spool", ".bin", dir), identity, identity)
  }
  private val serializer = new JavaSerializer(new SparkConf(false)).newInstance()
  private def filesLeft: Int = Option(dir.listFiles()).map(_.length).getOrElse(0)

  private def spoolOf(limit: Int, values: Seq[Array[Byte]]): Spool = {
    val s = new Spool(storage, limit, 4096)
    values.foreach(v => s.append(v, 0, v.length))
    s
  }

  test(
    "a spool keeps its first bytes in memory, the rest in a file, and reads both back any number of times"
  ) {
    val values = (0 until 500).map(i => Array.fill[Byte](i % 37)(i.toByte))
    val spool = spoolOf(2000, values)
    assert(!spool.inMemory && filesLeft == 1 && spool.records == 500)
    for (_ <- 1 to 2) {
      val c = spool.cursor()
      val back = Iterator
        .continually(c.next())
        .takeWhile(identity)
        .map { _ =>
          java.util.Arrays.copyOfRange(c.bytes, c.offset, c.offset + c.length).toSeq
        }
        .toList
      assert(back == values.map(_.toSeq))
    }
    intercept[IllegalStateException](spool.append(Array[Byte](1), 0, 1))
    spool.reset()
    assert(spool.isEmpty && spool.inMemory && filesLeft == 0, "reset deletes the file")
    val small = spoolOf(1 << 20, values)
    assert(small.inMemory && filesLeft == 0)
  }

  private def pairsOf(
      kind: JoinKind,
      left: Seq[Any],
      right: Seq[Any],
      spoolMemory: Int
  ): (Seq[(Any, Any)], SpoolPool) = {
    val pool = new SpoolPool(storage, spoolMemory, 4096)
    val builder = new StreamedJoinBuilder(kind, new ValueDecoder(serializer), pool)
    val encoder = new ValueEncoder(serializer)
    // Sides interleaved, as records of both inputs arrive from spill runs.
    val tagged = left.map(0 -> _) ++ right.map(1 -> _)
    scala.util.Random.shuffle(tagged).foreach { case (tag, v) =>
      encoder.encode(v)
      builder.record(tag, encoder.bytes, 0, encoder.length)
    }
    (builder.result().toList, pool)
  }

  private def expected(kind: JoinKind, left: Seq[Any], right: Seq[Any]): Seq[(Any, Any)] =
    if (left.isEmpty && right.isEmpty) Nil
    else if (right.isEmpty) { if (kind.keepsLonelyLeft) left.map(kind.lonelyLeft) else Nil }
    else if (left.isEmpty) { if (kind.keepsLonelyRight) right.map(kind.lonelyRight) else Nil }
    else for (v <- left; w <- right) yield kind.pair(v, w)

  test("every join kind pairs a key's sides as Spark does, from memory or from spool files") {
    val many = (0 until 300).map(i => s"l$i")
    val sides = Seq(
      (Seq("a", null, "b"), Seq("x", "y")),
      (many, Seq("w")),
      (Seq("v"), many.map("r" + _)),
      (
        many,
        many.take(120).map("r" + _)
      ), // both sides beyond a small spool: the inner side is re-read
      (Seq("only-left", "again"), Nil),
      (Nil, Seq("only-right")),
      (Seq[Any](1L, 2.5, (3, "t")), Seq[Any](Array[Byte](1, 2)).map(_ => "bytes"))
    )
    for (
      kind <- Seq(JoinKind.Inner, JoinKind.LeftOuter, JoinKind.RightOuter, JoinKind.FullOuter);
      (left, right) <- sides;
      spoolMemory <- Seq(1 << 20, 256)
    ) withClue(s"$kind, ${left.size} x ${right.size}, spool memory $spoolMemory: ") {
      val (pairs, pool) = pairsOf(kind, left, right, spoolMemory)
      def norm(ps: Seq[(Any, Any)]) = ps.map(String.valueOf).sorted
      assert(norm(pairs) == norm(expected(kind, left, right)))
      assert(filesLeft == 0, "the spools are released (files deleted) once the pairs are read")
      pool.close()
    }
  }

  test("a task that stops reading a key's pairs early leaves no file behind once the pool closes") {
    val (_, pool) = {
      val pool = new SpoolPool(storage, 64, 4096)
      val builder = new StreamedJoinBuilder(JoinKind.Inner, new ValueDecoder(serializer), pool)
      val encoder = new ValueEncoder(serializer)
      (0 until 100).foreach { i =>
        encoder.encode(s"value-$i"); builder.record(i % 2, encoder.bytes, 0, encoder.length)
      }
      val pairs = builder.result()
      pairs.next()
      (pairs, pool)
    }
    assert(filesLeft > 0)
    pool.close()
    assert(filesLeft == 0)
  }
}
