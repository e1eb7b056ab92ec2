package org.apache.spark.shuffle.levee

import java.util.zip.CRC32

import scala.collection.mutable.ArrayBuffer

import dev.levee.leaky.LeakyConf
import org.apache.spark.SparkConf

/**
 * Values and keys larger than `spark.kryoserializer.buffer.max`: Kryo caps one `serialize` call at that size, while
 * Spark's own shuffle streams every record and so succeeds. The table must stream too, for values it buffers and
 * for keys it spills, with the serializer's own format (so spill runs and emission read them back unchanged).
 */
class LeakyLargeValueSuite extends LeakySparkSuite {
  import LeakyLargeValueSuite._

  override protected def extraConf(conf: SparkConf): SparkConf = conf
    .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
    .set(
      "spark.kryoserializer.buffer.max",
      "64m"
    ) // Spark's default, stated: the test is about exceeding it
    .set(LeakyConf.PageSize.name, "1m")
    // Combiners go to the table from the first record, whatever this JVM's heap: the table's path is under test.
    .set(LeakyConf.ArrivalHeapFraction.name, "0")
    .set(LeakyConf.MaxRunSegment.name, "64k")

  test(
    "a combiner of several hundred MB, beyond spark.kryoserializer.buffer.max, aggregates as in stock"
  ) {
    // One hot key whose aggregateByKey combiner collects 320 arrays of 1 MiB: each map task's combiner is 160 MiB,
    // the merged one 320 MiB, five times the largest object Kryo's serialize() may write.
    val arrays = 320
    val before = leakyReads
    val (count, bytes, checksum) = sc
      .parallelize(0 until arrays, 2)
      .map(i => ("hot", block(i)))
      .aggregateByKey(ArrayBuffer.empty[Array[Byte]], 1)(_ += _, _ ++= _)
      .mapPartitions(_.map { case (_, blocks) =>
        (blocks.size.toLong, blocks.map(_.length.toLong).sum, blocks.map(crc).sum)
      })
      .collect()
      .head
    assert(leakyReads > before, "the combiners must have been buffered in the leaky table")
    assert(count == arrays && bytes == arrays.toLong * BlockBytes)
    assert(checksum == (0 until arrays).map(i => crc(block(i))).sum, "every byte must come back")
  }
}

/** Keys and values beyond a small buffer.max (1m), with a forced spill every 5 records, in a context of its own. */
class LeakyLargeKeySpillSuite extends LeakySparkSuite {
  import LeakyLargeValueSuite._

  override protected def extraConf(conf: SparkConf): SparkConf = conf
    .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
    .set("spark.kryoserializer.buffer.max", "1m")
    .set("spark.shuffle.spill.numElementsForceSpillThreshold", "5")

  test("keys and values larger than buffer.max survive forced spills and the merge") {
    diskSpilled.set(0)
    val local = sc
    val out = local
      .parallelize(0 until 40, 4)
      .map(i => (Blob(i % 4, 3 << 19), Blob(i, 3 << 19)))
      .groupByKey(2)
      .map { case (k, vs) => (k.id, k.check, vs.map(v => (v.id, v.check)).toSeq.sorted) }
      .collect()
      .sortBy(_._1)
    drainListener()
    assert(diskSpilled.get() > 0, "the forced-spill setting must have made the tables spill")
    assert(out.map(_._1).toSeq == (0 until 4))
    out.foreach { case (k, keyCheck, values) =>
      assert(keyCheck == Blob(k, 3 << 19).check)
      assert(values == (k until 40 by 4).map(i => (i, Blob(i, 3 << 19).check)))
    }
  }
}

object LeakyLargeValueSuite {
  val BlockBytes: Int = 1 << 20

  /** 1 MiB whose bytes depend on `i`, cheap to make. */
  def block(i: Int): Array[Byte] = {
    val b = new Array[Byte](BlockBytes)
    java.util.Arrays.fill(b, (i % 251).toByte)
    b(0) = (i >>> 8).toByte; b(1) = i.toByte; b(BlockBytes - 1) = (i * 7).toByte
    b
  }

  def crc(b: Array[Byte]): Long = { val c = new CRC32; c.update(b); c.getValue }
}

/**
 * A key or value the table cannot encode compactly (a case class), so it goes through the serializer; equal by id
 * and content, with a large payload derived from the id.
 */
final case class Blob(id: Int, payload: Array[Byte]) {
  def check: Long = LeakyLargeValueSuite.crc(payload)
  override def hashCode(): Int = id
  override def equals(o: Any): Boolean = o match {
    case b: Blob => b.id == id && java.util.Arrays.equals(b.payload, payload)
    case _       => false
  }
}

object Blob {
  def apply(id: Int, bytes: Int): Blob = {
    val p = new Array[Byte](bytes)
    var i = 0
    while (i < bytes) { p(i) = ((i * 31 + id) & 0xff).toByte; i += 1 }
    new Blob(id, p)
  }
}
