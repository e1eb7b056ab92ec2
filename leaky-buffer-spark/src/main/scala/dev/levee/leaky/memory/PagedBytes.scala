package dev.levee.leaky.memory

import scala.collection.mutable.ArrayBuffer

/**
 * Append-only byte memory made of fixed-size pages. Growth adds a page and never copies, so
 * there is no 3x peak while doubling and no array larger than the page size, except a dedicated
 * page for a single region that is larger than a page.
 *
 * An address packs (page index << 32 | offset). A region handed out by [[reserve]] is
 * contiguous within one page, so readers can wrap it without reassembly.
 *
 * [[recycle]] empties the store but keeps its standard pages for the next fill. A table that spills and refills
 * would otherwise drop pages the collector has already promoted and allocate new ones that get promoted in turn:
 * old-generation garbage that only a full collection reclaims, once per spill. Kept, the pages are the few
 * long-lived objects the leaky buffer is meant to leave the collector. With a [[PagePool]], pages also outlive the
 * store: [[clear]] and [[dropSpare]] give them to the pool and new pages come from it first, so the next table of the
 * executor refills them instead of promoting new ones.
 */
final class PagedBytes(pageSize: Int, pool: Option[PagePool] = None) {
  require(pageSize > 0, s"page size must be positive, got $pageSize")

  private val pages = new ArrayBuffer[Array[Byte]]()
  private val spare = new ArrayBuffer[Array[Byte]]()
  private var current: Array[Byte] = _
  private var position = 0
  private var allocated = 0L

  /** Bytes held in pages, in use or kept for reuse, whether filled or not: what the table is charged for. */
  def allocatedBytes: Long = allocated

  /** Bytes that reserving `n` bytes would newly allocate (0 if it fits the current page or a kept one). */
  def allocationFor(n: Int): Long =
    if (current != null && current.length - position >= n) 0L
    else if (n <= pageSize && spare.nonEmpty) 0L
    else math.max(n, pageSize).toLong

  /** Returns the address of `n` contiguous bytes; their content is undefined until written. */
  def reserve(n: Int): Long = {
    if (current == null || current.length - position < n) {
      if (n <= pageSize && spare.nonEmpty) current = spare.remove(spare.length - 1)
      else {
        current = if (n <= pageSize) pool.map(_.take()).orNull else null
        if (current == null) current = new Array[Byte](math.max(n, pageSize))
        allocated += current.length
      }
      pages += current
      position = 0
    }
    val address = PagedBytes.address(pages.length - 1, position)
    position += n
    address
  }

  def page(address: Long): Array[Byte] = pages(PagedBytes.pageIndex(address))

  /**
   * Empties the store and keeps its standard pages for the next reservations; a dedicated page larger than the page
   * size is dropped. All earlier addresses become invalid.
   */
  def recycle(): Unit = {
    pages.foreach { p => if (p.length == pageSize) spare += p else allocated -= p.length }
    pages.clear()
    current = null
    position = 0
  }

  /** Bytes held in pages kept for reuse. */
  def spareBytes: Long = spare.length.toLong * pageSize

  /** Drops the pages kept for reuse; the pages in use stay. */
  def dropSpare(): Unit = {
    allocated -= spareBytes
    pool.foreach(p => spare.foreach(p.give))
    spare.clear()
  }

  /** Drops every page, kept ones too (to the pool, if any); all earlier addresses become invalid. */
  def clear(): Unit = {
    pool.foreach { p => pages.foreach(p.give); spare.foreach(p.give) }
    pages.clear()
    spare.clear()
    current = null
    position = 0
    allocated = 0L
  }
}

object PagedBytes {
  val Null: Long = -1L
  @inline def address(page: Int, offset: Int): Long = (page.toLong << 32) | (offset & 0xffffffffL)
  @inline def pageIndex(address: Long): Int = (address >>> 32).toInt
  @inline def offset(address: Long): Int = address.toInt

  @inline def putLong(b: Array[Byte], off: Int, v: Long): Unit = {
    var i = 0
    while (i < 8) { b(off + i) = (v >>> (56 - 8 * i)).toByte; i += 1 }
  }
  @inline def getLong(b: Array[Byte], off: Int): Long = {
    var v = 0L
    var i = 0
    while (i < 8) { v = (v << 8) | (b(off + i) & 0xffL); i += 1 }
    v
  }
  @inline def putInt(b: Array[Byte], off: Int, v: Int): Unit = {
    b(off) = (v >>> 24).toByte; b(off + 1) = (v >>> 16).toByte
    b(off + 2) = (v >>> 8).toByte; b(off + 3) = v.toByte
  }
  @inline def getInt(b: Array[Byte], off: Int): Int =
    ((b(off) & 0xff) << 24) | ((b(off + 1) & 0xff) << 16) | ((b(off + 2) & 0xff) << 8) |
      (b(off + 3) & 0xff)
}
