package dev.levee.leaky.value

import java.nio.ByteBuffer
import java.nio.charset.StandardCharsets

import scala.annotation.switch

import dev.levee.leaky.memory.PagedBytes
import org.apache.spark.serializer.SerializerInstance

/**
 * Turns bytes written by [[ValueEncoder]] back into a value. Every decoded value is a fresh
 * object that shares nothing with `bytes`, so callers may reuse their buffers at once.
 * Not thread-safe; one per task, like the serializer instance it falls back to.
 */
final class ValueDecoder(serializer: SerializerInstance) {

  def decode(bytes: Array[Byte], offset: Int, length: Int): Any = {
    if (length < 1) throw new IllegalStateException("corrupt leaky value: no tag byte")
    val p = offset + 1
    val n = length - 1
    (bytes(offset): @switch) match {
      case ValueTag.Null         => null
      case ValueTag.Latin1String => new String(bytes, p, n, StandardCharsets.ISO_8859_1)
      case ValueTag.Utf16String  =>
        val chars = new Array[Char](n / 2)
        var i = 0
        while (i < chars.length) { chars(i) = getShort(bytes, p + 2 * i).toChar; i += 1 }
        new String(chars)
      case ValueTag.Int    => java.lang.Integer.valueOf(PagedBytes.getInt(bytes, p))
      case ValueTag.Long   => java.lang.Long.valueOf(PagedBytes.getLong(bytes, p))
      case ValueTag.Double =>
        java.lang.Double.valueOf(java.lang.Double.longBitsToDouble(PagedBytes.getLong(bytes, p)))
      case ValueTag.Float =>
        java.lang.Float.valueOf(java.lang.Float.intBitsToFloat(PagedBytes.getInt(bytes, p)))
      case ValueTag.Short     => java.lang.Short.valueOf(getShort(bytes, p).toShort)
      case ValueTag.Byte      => java.lang.Byte.valueOf(bytes(p))
      case ValueTag.Boolean   => java.lang.Boolean.valueOf(bytes(p) != 0)
      case ValueTag.Char      => java.lang.Character.valueOf(getShort(bytes, p).toChar)
      case ValueTag.ByteArray => java.util.Arrays.copyOfRange(bytes, p, p + n)
      case ValueTag.Tuple2    =>
        val first = PagedBytes.getInt(bytes, p)
        (decode(bytes, p + 4, first), decode(bytes, p + 4 + first, n - 4 - first))
      case ValueTag.Serialized => serializer.deserialize[Any](ByteBuffer.wrap(bytes, p, n))
      case other => throw new IllegalStateException(s"corrupt leaky value: unknown tag $other")
    }
  }

  private def getShort(b: Array[Byte], off: Int): Int = ((b(off) & 0xff) << 8) | (b(off + 1) & 0xff)
}
