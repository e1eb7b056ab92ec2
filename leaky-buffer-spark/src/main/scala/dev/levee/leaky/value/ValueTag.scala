package dev.levee.leaky.value

/**
 * First byte of every buffered value: how the rest is encoded. Common immutable types have a
 * compact form of their own; [[ValueTag.Serialized]] marks the shuffle serializer's bytes, which
 * every other type (and every type a tuple element cannot be) gets. The numbers are part of
 * the spill format of one task only, never of anything persisted across tasks or versions.
 */
object ValueTag {
  final val Null = 0

  /** A String whose chars all fit in one byte: one byte per char. */
  final val Latin1String = 1

  /** Any other String: two bytes per char (UTF-16 code units, so lone surrogates survive). */
  final val Utf16String = 2
  final val Int = 3
  final val Long = 4
  final val Double = 5
  final val Float = 6
  final val Short = 7
  final val Byte = 8
  final val Boolean = 9
  final val Char = 10
  final val ByteArray = 11

  /** scala.Tuple2 of two non-tuple compact values: [first's length: 4][first][second]. */
  final val Tuple2 = 12
  final val Serialized = 13
}
