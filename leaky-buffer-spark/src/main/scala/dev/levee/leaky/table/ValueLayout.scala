package dev.levee.leaky.table

import dev.levee.leaky.memory.{PagePool, PagedBytes}

/** Where a leaky table keeps the serialized values of each key. */
sealed trait ValueLayout {
  def ensureKey(id: Int): Unit
  def append(id: Int, tag: Int, value: Array[Byte], offset: Int, length: Int): Unit

  /** Visits key `id`'s values in insertion order. */
  def foreachRecord(id: Int, visitor: RecordVisitor): Unit

  /** Bytes this layout holds (pages and per-key arrays). */
  def memoryBytes: Long

  /** Of [[memoryBytes]], the pages kept empty for the next fill (see [[recycle]]). */
  def spareBytes: Long

  /** Upper bound of new memory the next append of a `recordSize`-byte record can allocate. */
  def worstCaseAllocation(recordSize: Int): Long

  /** Forgets every key and value but keeps the pages for the next fill (see [[PagedBytes.recycle]]). */
  def recycle(): Unit

  /** Drops the pages kept by [[recycle]] that the current fill has not used. */
  def dropSpare(): Unit

  /** Forgets every key and value and drops the pages. */
  def clear(): Unit
}

/**
 * groupBy layout (paper IV-C): the records of a key are written straight into its own byte
 * run, which suits a high load factor: one contiguous run per key, no per-value index.
 */
final class GroupRunLayout(pageSize: Int, maxSegment: Int, pool: Option[PagePool] = None)
    extends ValueLayout {
  private val store = new PagedBytes(pageSize, pool)
  private val runs = new RunChains(store, maxSegment)

  override def ensureKey(id: Int): Unit = runs.ensureKey(id)

  override def append(id: Int, tag: Int, value: Array[Byte], offset: Int, length: Int): Unit = {
    val address = runs.append(id, RecordFormat.recordSize(length))
    val page = store.page(address)
    val at = RecordFormat.writeHeader(page, PagedBytes.offset(address), tag, length)
    System.arraycopy(value, offset, page, at, length)
  }

  override def foreachRecord(id: Int, visitor: RecordVisitor): Unit =
    runs.foreachSpan(id) { (page, from, until) =>
      var p = from
      while (p < until) p = RecordFormat.visit(page, p, visitor)
    }

  /** Key `id`'s records as one array, as written: what a grouping map task sends as the key's pack. */
  def runBytes(id: Int): Array[Byte] = {
    var length = 0
    runs.foreachSpan(id)((_, from, until) => length += until - from)
    val out = new Array[Byte](length)
    var at = 0
    runs.foreachSpan(id) { (page, from, until) =>
      System.arraycopy(page, from, out, at, until - from); at += until - from
    }
    out
  }

  override def memoryBytes: Long = store.allocatedBytes + runs.arrayBytes
  override def spareBytes: Long = store.spareBytes
  override def worstCaseAllocation(recordSize: Int): Long = runs.worstCaseAllocation(recordSize)
  override def recycle(): Unit = { store.recycle(); runs.recycle() }
  override def dropSpare(): Unit = store.dropSpare()
  override def clear(): Unit = { store.clear(); runs.clear() }
}

/**
 * join layout (paper IV-B): every record goes to one shared byte area in arrival order and each
 * key keeps a list of 8-byte record addresses (itself a per-key run in a separate index area).
 * Suits few values per key, such as the two sides of a key-key join, and keeps the values of
 * all inputs in one place whatever the mix of sides.
 */
final class SharedAreaJoinLayout(pageSize: Int, maxSegment: Int, pool: Option[PagePool] = None)
    extends ValueLayout {
  private val area = new PagedBytes(pageSize, pool)
  private val index = new PagedBytes(pageSize, pool)
  private val lists = new RunChains(index, maxSegment)

  override def ensureKey(id: Int): Unit = lists.ensureKey(id)

  override def append(id: Int, tag: Int, value: Array[Byte], offset: Int, length: Int): Unit = {
    val record = area.reserve(RecordFormat.recordSize(length))
    val page = area.page(record)
    val at = RecordFormat.writeHeader(page, PagedBytes.offset(record), tag, length)
    System.arraycopy(value, offset, page, at, length)
    val slot = lists.append(id, 8)
    PagedBytes.putLong(index.page(slot), PagedBytes.offset(slot), record)
  }

  override def foreachRecord(id: Int, visitor: RecordVisitor): Unit =
    lists.foreachSpan(id) { (page, from, until) =>
      var p = from
      while (p < until) {
        val record = PagedBytes.getLong(page, p)
        RecordFormat.visit(area.page(record), PagedBytes.offset(record), visitor)
        p += 8
      }
    }

  override def memoryBytes: Long = area.allocatedBytes + index.allocatedBytes + lists.arrayBytes
  override def spareBytes: Long = area.spareBytes + index.spareBytes
  override def worstCaseAllocation(recordSize: Int): Long =
    area.allocationFor(recordSize) + lists.worstCaseAllocation(8)
  override def recycle(): Unit = { area.recycle(); index.recycle(); lists.recycle() }
  override def dropSpare(): Unit = { area.dropSpare(); index.dropSpare() }
  override def clear(): Unit = { area.clear(); index.clear(); lists.clear() }
}
