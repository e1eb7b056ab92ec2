package dev.levee.leaky.memory

import java.lang.ref.WeakReference
import java.util.concurrent.ConcurrentHashMap

/**
 * Pages a finished table gave back, for the next table of the same executor, held weakly.
 *
 * Why: a reduce task's table lives long enough for its pages to be promoted, and dies with the task. On a small heap
 * every task then leaves megabytes of dead pages in the old generation, and the next task promotes fresh ones: the
 * collector runs a full collection every task or two (a 64 MB executor running groupBy tasks back to back made 4 of
 * them per 4 tasks, half its GC time). Handing the pages on keeps them the few long-lived objects the leaky buffer
 * means to leave the collector, as [[PagedBytes.recycle]] does within one table.
 *
 * Weak, not soft or strong: an idle page must never keep memory from a task or count as live heap
 * ([[LiveHeapCeiling]] reads the old generation after a full collection). A weakly held page is gone at the first
 * collection that reaches it (a full one, once promoted), so the pool cannot cause an OutOfMemoryError and holds
 * nothing Spark's memory manager does not know about after a full collection. Spark's own on-heap allocator pools its
 * large pages the same way. Tables charge a reused page to Spark's memory manager exactly like a new one.
 */
final class PagePool private (pageSize: Int, maxPages: Int) {
  private val pages = new java.util.ArrayDeque[WeakReference[Array[Byte]]]()

  /** A kept page of exactly the pool's size, or null when none survived. */
  def take(): Array[Byte] = pages.synchronized {
    var page: Array[Byte] = null
    while (page == null && !pages.isEmpty) page = pages.pollLast().get()
    page
  }

  /** Keeps `page` for a later [[take]] if it is a standard page and the pool has room; drops it otherwise. */
  def give(page: Array[Byte]): Unit =
    if (page.length == pageSize) pages.synchronized {
      if (pages.size >= maxPages) dropCleared()
      if (pages.size < maxPages) pages.addLast(new WeakReference(page))
    }

  private def dropCleared(): Unit = pages.removeIf(_.get() == null)
}

object PagePool {
  private val pools = new ConcurrentHashMap[Integer, PagePool]()

  /** The executor's pool for pages of `pageSize` bytes: at most a heap's worth of them. */
  def shared(pageSize: Int): PagePool =
    pools.computeIfAbsent(pageSize, size => new PagePool(size, capacity(size)))

  /** A pool of its own, for tests. */
  def isolated(pageSize: Int, maxPages: Int): PagePool = new PagePool(pageSize, maxPages)

  private def capacity(pageSize: Int): Int =
    math.max(1L, math.min(Int.MaxValue.toLong, Runtime.getRuntime.maxMemory / pageSize)).toInt
}
