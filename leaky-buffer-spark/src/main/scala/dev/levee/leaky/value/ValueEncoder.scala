package dev.levee.leaky.value

import java.io.OutputStream
import java.nio.ByteBuffer

import dev.levee.leaky.memory.PagedBytes
import org.apache.spark.SparkException
import org.apache.spark.serializer.SerializerInstance
import org.apache.spark.shuffle.levee.SparkLine

/**
 * Encodes one value at a time into a reused scratch array, as `[ValueTag][payload]`.
 *
 * Why not simply the shuffle serializer: the table needs each value as a self-contained byte
 * string, and a serializer's `serialize` pays its whole per-stream setup for every value (a new
 * ObjectOutputStream with its header, handle table and block buffer for Java serialization; a
 * borrowed, reset Kryo for Kryo). For the short values of a typical groupBy or join that setup
 * costs more than everything else the table does per record. Strings, boxed primitives, byte
 * arrays and pairs of those are written directly; anything else falls back to the serializer,
 * so every type the shuffle can carry is still correct.
 *
 * Not thread-safe; one per task, like the serializer instance it falls back to.
 */
final class ValueEncoder(serializer: SerializerInstance) {
  import ValueEncoder._

  private var buf = new Array[Byte](256)
  private var len = 0

  /** The last encoded value is `bytes(0 until length)`; valid until the next [[encode]]. */
  def bytes: Array[Byte] = buf
  def length: Int = len

  def encode(value: Any): Unit = {
    len = 0
    if (!writeCompact(value, allowTuple = true)) {
      len = 0
      writeSerialized(value)
    }
  }

  /** Writes `value` in a compact form if it has one; false (and nothing usable written) if not. */
  private def writeCompact(value: Any, allowTuple: Boolean): Boolean = value match {
    case null                 => tag(ValueTag.Null); true
    case s: String            => writeString(s); true
    case i: java.lang.Integer => tag(ValueTag.Int); putInt(i.intValue); true
    case l: java.lang.Long    => tag(ValueTag.Long); putLong(l.longValue); true
    case d: java.lang.Double  =>
      tag(ValueTag.Double); putLong(java.lang.Double.doubleToRawLongBits(d)); true
    case f: java.lang.Float =>
      tag(ValueTag.Float); putInt(java.lang.Float.floatToRawIntBits(f)); true
    case b: java.lang.Boolean => tag(ValueTag.Boolean); putByte(if (b.booleanValue) 1 else 0); true
    case s: java.lang.Short   => tag(ValueTag.Short); putShort(s.intValue); true
    case b: java.lang.Byte    => tag(ValueTag.Byte); putByte(b.intValue); true
    case c: java.lang.Character => tag(ValueTag.Char); putShort(c.charValue.toInt); true
    case a: Array[Byte]         =>
      tag(ValueTag.ByteArray); room(a.length); System.arraycopy(a, 0, buf, len, a.length);
      len += a.length; true
    // Exact class only: specialized subclasses (Tuple2$mcII$sp...) must come back as themselves.
    // Elements are limited to immutable compact values, so no aliasing can be lost in the copy.
    case t: scala.Tuple2[_, _]
        if allowTuple && (t.getClass eq TupleClass) &&
          immutableCompact(t._1) && immutableCompact(t._2) =>
      tag(ValueTag.Tuple2)
      val lengthAt = len
      room(4); len += 4
      writeCompact(t._1, allowTuple = false)
      PagedBytes.putInt(buf, lengthAt, len - lengthAt - 4)
      writeCompact(t._2, allowTuple = false)
    case _ => false
  }

  private def writeString(s: String): Unit = {
    val start = len
    val n = s.length
    tag(ValueTag.Latin1String)
    room(n)
    var i = 0
    while (i < n) {
      val c = s.charAt(i)
      if (c > 0xff) { len = start; writeUtf16(s); return }
      buf(len + i) = c.toByte
      i += 1
    }
    len += n
  }

  private def writeUtf16(s: String): Unit = {
    val n = s.length
    tag(ValueTag.Utf16String)
    room(2 * n)
    var i = 0
    while (i < n) { putShort(s.charAt(i).toInt); i += 1 }
  }

  private def writeSerialized(value: Any): Unit = {
    val b: ByteBuffer =
      try serializer.serialize[Any](value)
      catch {
        case e: SparkException if SparkLine.isKryoBufferOverflow(e) =>
          // Kryo caps one serialize() at spark.kryoserializer.buffer.max; a stream has no cap (Spark's own
          // shuffle writer and spills stream every record). Rare, so the failed attempt's cost does not matter.
          len = 0
          tag(ValueTag.Serialized)
          val stream = serializer.serializeStream(sink)
          stream.writeObject[Any](value)
          stream.close()
          return
      }
    tag(ValueTag.Serialized)
    val n = b.remaining()
    room(n)
    b.get(buf, len, n)
    len += n
  }

  /** Appends to the scratch array: the target of the streaming fallback. */
  private object sink extends OutputStream {
    override def write(b: Int): Unit = putByte(b)
    override def write(b: Array[Byte], off: Int, n: Int): Unit = {
      room(n); System.arraycopy(b, off, buf, len, n); len += n
    }
  }

  /**
   * Gives back a scratch array grown past [[ValueEncoder.KeptBytes]] by one large value: kept, it would hold that
   * memory for the rest of the task outside any accounting. Call when the last encoded bytes are no longer needed.
   */
  def shrink(): Unit = if (buf.length > KeptBytes) { buf = new Array[Byte](256); len = 0 }

  private def tag(t: Int): Unit = putByte(t)
  private def putByte(v: Int): Unit = { room(1); buf(len) = v.toByte; len += 1 }
  private def putShort(v: Int): Unit = {
    room(2); buf(len) = (v >>> 8).toByte; buf(len + 1) = v.toByte; len += 2
  }
  private def putInt(v: Int): Unit = { room(4); PagedBytes.putInt(buf, len, v); len += 4 }
  private def putLong(v: Long): Unit = { room(8); PagedBytes.putLong(buf, len, v); len += 8 }

  private def room(n: Int): Unit = if (buf.length - len < n) {
    val needed = len.toLong + n
    if (needed > MaxArray)
      throw new IllegalArgumentException(s"value of $needed bytes is too large to buffer")
    buf = java.util.Arrays.copyOf(buf, math.min(MaxArray, math.max(needed, 2L * buf.length)).toInt)
  }
}

object ValueEncoder {
  private val TupleClass = classOf[scala.Tuple2[_, _]]
  private val MaxArray = Int.MaxValue - 16

  /** Scratch kept between values; one larger value's array is dropped after use. */
  private val KeptBytes = 1 << 20

  private def immutableCompact(v: Any): Boolean = v match {
    case null | _: String | _: java.lang.Integer | _: java.lang.Long | _: java.lang.Double |
        _: java.lang.Float | _: java.lang.Boolean | _: java.lang.Short | _: java.lang.Byte |
        _: java.lang.Character =>
      true
    case _ => false
  }
}
