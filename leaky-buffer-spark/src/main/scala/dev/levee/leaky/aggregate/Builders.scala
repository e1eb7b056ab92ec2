package dev.levee.leaky.aggregate

import scala.collection.mutable.ArrayBuffer

import dev.levee.leaky.table.GroupBuilder
import dev.levee.leaky.value.ValueDecoder

/** Folds a key's values into a combiner as they are deserialized, one at a time. */
final class CombiningBuilder[V, C](
    values: ValueDecoder,
    createCombiner: V => C,
    mergeValue: (C, V) => C
) extends GroupBuilder[C] {
  private var combiner: C = _
  private var empty = true

  override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit = {
    val v = values.decode(bytes, offset, length).asInstanceOf[V]
    if (empty) { combiner = createCombiner(v); empty = false }
    else combiner = mergeValue(combiner, v)
  }

  override def result(): C = {
    if (empty) throw new IllegalStateException("a group without values cannot be combined")
    combiner
  }
}

/** Collects a key's values per input side, as CoGroupedRDD emits them. */
final class CogroupBuilder(values: ValueDecoder, sides: Int)
    extends GroupBuilder[Array[Iterable[Any]]] {
  private val perSide = Array.fill(sides)(new ArrayBuffer[Any](2))

  override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit =
    perSide(tag) += values.decode(bytes, offset, length)

  override def result(): Array[Iterable[Any]] = perSide.map(b => b: Iterable[Any])
}
