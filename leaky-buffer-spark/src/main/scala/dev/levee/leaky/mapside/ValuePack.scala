package dev.levee.leaky.mapside

import dev.levee.leaky.table.{RecordFormat, RecordVisitor}

/**
 * What a grouping map task writes as one key's value: the key's values as a leaky table's records
 * ([[RecordFormat]]: tag, length, encoded value), back to back. The reduce side copies them into its table as they
 * are, so a pack needs no decoding until its group is emitted.
 */
object ValuePack {

  /** A pack of the one value encoded in `value(0 until length)`. */
  def single(value: Array[Byte], length: Int): Array[Byte] = {
    val pack = new Array[Byte](RecordFormat.recordSize(length))
    val at = RecordFormat.writeHeader(pack, 0, 0, length)
    System.arraycopy(value, 0, pack, at, length)
    pack
  }

  /**
   * Visits each value of `pack` in order. A pack comes from another JVM over the network, so every record is checked
   * to lie within it before it is visited: a damaged one is refused, naming where it breaks (the records before it
   * have been visited; the reading task fails and Spark runs it again).
   */
  def foreach(pack: Array[Byte], visitor: RecordVisitor): Unit = {
    var p = 0
    while (p < pack.length) {
      val tag = pack(p).toInt
      var q = p + 1
      var length = 0L
      var shift = 0
      var more = true
      while (more) {
        if (q >= pack.length || shift > 28) corrupt(pack, p, "its length runs past the pack")
        val byte = pack(q)
        q += 1
        length |= (byte & 0x7fL) << shift
        shift += 7
        more = (byte & 0x80) != 0
      }
      if (length > pack.length - q)
        corrupt(pack, p, s"it claims $length bytes, ${pack.length - q} are left")
      visitor.record(tag, pack, q, length.toInt)
      p = q + length.toInt
    }
  }

  private def corrupt(pack: Array[Byte], at: Int, why: String): Nothing =
    throw new IllegalStateException(
      s"corrupt value pack: the record at byte $at of ${pack.length} is damaged ($why); a map task and this " +
        "reader disagree on the pack format, or the shuffle block was damaged"
    )
}
