package dev.levee.leaky.join

import scala.collection.mutable.ArrayBuffer

import dev.levee.leaky.spill.{RecordCursor, Spool}
import dev.levee.leaky.table.GroupBuilder
import dev.levee.leaky.value.ValueDecoder

/**
 * One key of a join: its values stay serialized, per side, in [[Spool]]s (memory up to a limit, then disk), and its
 * output pairs are produced one at a time from them, without building either side's collection. A hot key whose
 * values are many times the heap is then joined in bounded memory: stock Spark, and the leaky cogroup, hold both
 * sides of a key as objects.
 *
 * The smaller side is the inner loop: decoded once when it is all in memory, else read again (and decoded) for each
 * value of the larger side, which is read once. Pairs keep Spark's orientation (left, right) whichever side loops.
 */
final class StreamedJoinBuilder(kind: JoinKind, decoder: ValueDecoder, spools: SpoolPool)
    extends GroupBuilder[Iterator[(Any, Any)]] {
  private val sides = Array(spools.acquire(), spools.acquire())

  override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit =
    sides(tag).append(bytes, offset, length)

  override def result(): Iterator[(Any, Any)] = {
    val (left, right) = (sides(0), sides(1))
    val pairs: Iterator[(Any, Any)] =
      if (left.isEmpty && right.isEmpty) Iterator.empty
      else if (right.isEmpty) {
        if (kind.keepsLonelyLeft) values(left).map(kind.lonelyLeft) else Iterator.empty
      } else if (left.isEmpty) {
        if (kind.keepsLonelyRight) values(right).map(kind.lonelyRight) else Iterator.empty
      } else if (left.bytes < right.bytes)
        new Pairs(outer = right, inner = left, innerIsLeft = true)
      else new Pairs(outer = left, inner = right, innerIsLeft = false)
    new ReleasingIterator(pairs)
  }

  private def values(spool: Spool): Iterator[Any] = new Iterator[Any] {
    private val cursor = spool.cursor()
    private var ready = cursor.next()
    override def hasNext: Boolean = ready
    override def next(): Any = {
      if (!ready) throw new NoSuchElementException("no more values")
      val v = decoder.decode(cursor.bytes, cursor.offset, cursor.length)
      ready = cursor.next()
      v
    }
  }

  /** Every (outer, inner) pair, the outer side read once, the inner side decoded once or read per outer value. */
  private final class Pairs(outer: Spool, inner: Spool, innerIsLeft: Boolean)
      extends Iterator[(Any, Any)] {
    private val outerValues = values(outer)
    private val decodedInner: ArrayBuffer[Any] =
      if (inner.inMemory) {
        val all = new ArrayBuffer[Any](math.min(inner.records, 1024).toInt)
        values(inner).foreach(all += _)
        all
      } else null
    private var current: Any = _
    private var hasCurrent = false
    private var innerIndex = 0
    private var innerCursor: RecordCursor = _

    private def advanceOuter(): Boolean = {
      hasCurrent = outerValues.hasNext
      if (hasCurrent) {
        current = outerValues.next()
        innerIndex = 0
        if (decodedInner == null) innerCursor = inner.cursor()
      }
      hasCurrent
    }
    advanceOuter()

    private var pending: (Any, Any) = _

    private def orient(w: Any): (Any, Any) =
      if (innerIsLeft) kind.pair(w, current) else kind.pair(current, w)

    override def hasNext: Boolean = pending != null || {
      while (pending == null && hasCurrent) {
        if (decodedInner != null) {
          if (innerIndex < decodedInner.length) {
            pending = orient(decodedInner(innerIndex))
            innerIndex += 1
          } else advanceOuter()
        } else if (innerCursor.next()) {
          pending =
            orient(decoder.decode(innerCursor.bytes, innerCursor.offset, innerCursor.length))
        } else {
          innerCursor.close()
          advanceOuter()
        }
      }
      pending != null
    }

    override def next(): (Any, Any) = {
      if (!hasNext) throw new NoSuchElementException("no more pairs")
      val p = pending
      pending = null
      p
    }
  }

  /** Gives the spools back as soon as the pairs are exhausted (the pool frees the rest at task end). */
  private final class ReleasingIterator(pairs: Iterator[(Any, Any)]) extends Iterator[(Any, Any)] {
    private var released = false
    override def hasNext: Boolean = pairs.hasNext || {
      if (!released) { released = true; sides.foreach(spools.release) }
      false
    }
    override def next(): (Any, Any) = pairs.next()
  }
}
