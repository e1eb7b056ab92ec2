package dev.levee.leaky.table

import dev.levee.leaky.memory.PagedBytes
import dev.levee.leaky.memory.PagedBytes.{getInt, getLong, putInt, putLong}

/**
 * Per-key byte runs inside paged memory. A key's bytes live in a chain of segments whose
 * capacity doubles from [[RunChains.FirstSegment]] up to `maxSegment`, so a key with many values
 * has long contiguous runs, a key with few wastes little, and growth never copies.
 *
 * Segment header: [next segment address: 8][bytes used: 4][capacity: 4], then the data.
 * Per-key state is two primitive arrays (head, tail), so no object is created per key.
 */
final class RunChains(store: PagedBytes, maxSegment: Int) {
  import RunChains._

  private var heads = new Array[Long](64)
  private var tails = new Array[Long](64)
  private var keys = 0

  /** Heap held by the per-key arrays (the pages are charged through the store). */
  def arrayBytes: Long = 16L * heads.length

  /** Upper bound of new memory for appending `n` bytes to some key. */
  def worstCaseAllocation(n: Int): Long = store.allocationFor(Header + math.max(n, maxSegment))

  /** Registers key ids up to `id` (ids are dense and handed out in order). */
  def ensureKey(id: Int): Unit = {
    if (id >= heads.length) {
      val size = math.max(heads.length * 2, id + 1)
      heads = java.util.Arrays.copyOf(heads, size)
      tails = java.util.Arrays.copyOf(tails, size)
    }
    while (keys <= id) { heads(keys) = PagedBytes.Null; tails(keys) = PagedBytes.Null; keys += 1 }
  }

  /**
   * Makes room for `n` bytes at the end of key `id`'s run and returns their address; the caller
   * writes exactly `n` bytes there.
   */
  def append(id: Int, n: Int): Long = {
    val tail = tails(id)
    var seg = tail
    if (
      tail == PagedBytes.Null || {
        val page = store.page(tail); val off = PagedBytes.offset(tail)
        getInt(page, off + 12) - getInt(page, off + 8) < n
      }
    ) {
      val previousCapacity =
        if (tail == PagedBytes.Null) 0 else getInt(store.page(tail), PagedBytes.offset(tail) + 12)
      val capacity = math.max(
        n,
        if (previousCapacity == 0) FirstSegment else math.min(maxSegment, previousCapacity * 2)
      )
      seg = store.reserve(Header + capacity)
      val page = store.page(seg); val off = PagedBytes.offset(seg)
      putLong(page, off, PagedBytes.Null); putInt(page, off + 8, 0);
      putInt(page, off + 12, capacity)
      if (tail == PagedBytes.Null) heads(id) = seg
      else putLong(store.page(tail), PagedBytes.offset(tail), seg)
      tails(id) = seg
    }
    val page = store.page(seg); val off = PagedBytes.offset(seg)
    val used = getInt(page, off + 8)
    putInt(page, off + 8, used + n)
    PagedBytes.address(PagedBytes.pageIndex(seg), off + Header + used)
  }

  /** Calls `f.span(page, from, until)` for each filled span of key `id`, in append order. */
  def foreachSpan(id: Int)(f: SpanVisitor): Unit = {
    var seg = heads(id)
    while (seg != PagedBytes.Null) {
      val page = store.page(seg); val off = PagedBytes.offset(seg)
      val start = off + Header
      f.span(page, start, start + getInt(page, off + 8))
      seg = getLong(page, off)
    }
  }

  /** Forgets every key but keeps the per-key arrays: [[ensureKey]] resets each entry as its id comes back. */
  def recycle(): Unit = keys = 0

  def clear(): Unit = {
    heads = new Array[Long](64)
    tails = new Array[Long](64)
    keys = 0
  }
}

object RunChains {
  val Header = 16
  val FirstSegment = 64
}

/**
 * Receives one filled span of a run. Not a Scala function: `Function3` is not specialized, so every span visited
 * through one boxes its two offsets, which on a small heap was a tenth of what the reduce side allocates.
 */
trait SpanVisitor {
  def span(page: Array[Byte], from: Int, until: Int): Unit
}
