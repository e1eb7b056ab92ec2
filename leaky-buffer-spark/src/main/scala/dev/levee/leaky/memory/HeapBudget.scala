package dev.levee.leaky.memory

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

/**
 * A cap on the heap that all leaky tables of one JVM hold together, checked on top of Spark's
 * execution-memory grants.
 *
 * Why: Spark's unified pool is a fraction of (heap - reserved) and assumes the reserved part
 * covers Spark's own live objects. On a small executor heap that does not hold (Spark's own
 * live set alone is tens of MB), so a table that takes everything the pool grants leaves the
 * collector no room and the executor dies of OutOfMemoryError instead of spilling. A table's
 * bytes are known exactly, so capping them against the real heap is cheap and makes the table
 * spill where Spark's estimate would have let it grow. Where the heap is large the cap sits
 * above what Spark grants and changes nothing.
 */
final class HeapBudget(val limitBytes: Long) {
  private val held = new AtomicLong

  def heldBytes: Long = held.get

  /** Takes up to `n` bytes of what is left and returns how many were taken (0..n). */
  def acquireUpTo(n: Long): Long = {
    while (true) {
      val h = held.get
      val take = math.max(0L, math.min(n, limitBytes - h))
      if (take == 0L || held.compareAndSet(h, h + take)) return take
    }
    0L
  }

  def release(n: Long): Unit = if (n > 0) held.addAndGet(-n)
}

object HeapBudget {
  private val perFraction = new ConcurrentHashMap[java.lang.Double, HeapBudget]()

  /** The JVM's budget for `fraction` of its maximum heap (every task of an executor shares one). */
  def ofHeapFraction(fraction: Double): HeapBudget =
    perFraction.computeIfAbsent(fraction, f => new HeapBudget((Runtime.getRuntime.maxMemory * f).toLong))
}
