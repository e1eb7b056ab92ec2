package dev.levee.leaky.table

/**
 * One buffered value: [tag: 1 byte][length: unsigned varint][serialized value]. The tag says
 * which input of a join/cogroup the value came from (always 0 for a plain aggregation).
 */
object RecordFormat {
  val MaxTag = 126

  /** Written after the last record of a key in a spill file; never a valid tag. */
  val EndOfKey: Byte = -1

  def varintSize(v: Int): Int =
    if ((v & ~0x7f) == 0) 1
    else if ((v & ~0x3fff) == 0) 2
    else if ((v & ~0x1fffff) == 0) 3
    else if ((v & ~0xfffffff) == 0) 4
    else 5

  def recordSize(valueLength: Int): Int = 1 + varintSize(valueLength) + valueLength

  /** Writes a record header at `off`; returns the offset where the value bytes go. */
  def writeHeader(b: Array[Byte], off: Int, tag: Int, valueLength: Int): Int = {
    b(off) = tag.toByte
    off + 1 + writeVarint(b, off + 1, valueLength)
  }

  /** Writes `v` (not negative) as an unsigned varint at `off`; returns the number of bytes written. */
  def writeVarint(b: Array[Byte], off: Int, v: Int): Int = {
    var p = off
    var rest = v
    while ((rest & ~0x7f) != 0) { b(p) = ((rest & 0x7f) | 0x80).toByte; rest >>>= 7; p += 1 }
    b(p) = rest.toByte
    p + 1 - off
  }

  /** Calls `visitor` for the record at `off` and returns the offset just past it. */
  def visit(b: Array[Byte], off: Int, visitor: RecordVisitor): Int = {
    val tag = b(off).toInt
    var p = off + 1
    var len = 0
    var shift = 0
    var byte = 0
    while ({ byte = b(p); p += 1; (byte & 0x80) != 0 }) {
      len |= (byte & 0x7f) << shift; shift += 7
    }
    len |= byte << shift
    visitor.record(tag, b, p, len)
    p + len
  }
}

/** Receives buffered values one at a time, without materializing them. */
trait RecordVisitor {
  def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit
}
