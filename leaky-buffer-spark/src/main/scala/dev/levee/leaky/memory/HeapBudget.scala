package dev.levee.leaky.memory

import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicLong

/**
 * A cap on the heap that all leaky tables of one JVM hold together, checked on top of Spark's
 * execution-memory grants: a fixed share of the heap, and below it whatever `ceiling` allows now.
 *
 * Why: Spark's unified pool is a fraction of (heap - reserved) and assumes the reserved part
 * covers Spark's own live objects. On a small executor heap that does not hold (Spark's own
 * live set alone is tens of MB), so a table that takes everything the pool grants leaves the
 * collector no room and the executor dies of OutOfMemoryError instead of spilling. A table's
 * bytes are known exactly, so capping them against the real heap is cheap and makes the table
 * spill where Spark's estimate would have let it grow. Where the heap is large the cap sits
 * above what Spark grants and changes nothing.
 */
final class HeapBudget(val limitBytes: Long, ceiling: TableCeiling) {
  def this(limitBytes: Long) = this(limitBytes, TableCeiling.Unlimited)

  private val held = new AtomicLong

  def heldBytes: Long = held.get

  /** What the tables may hold together now. */
  def currentLimit: Long = math.min(limitBytes, ceiling.bytes)

  /** Takes up to `n` bytes of what is left and returns how many were taken (0..n). */
  def acquireUpTo(n: Long): Long = {
    val limit = currentLimit
    while (true) {
      val h = held.get
      val take = math.max(0L, math.min(n, limit - h))
      if (take == 0L || held.compareAndSet(h, h + take)) return take
    }
    0L
  }

  def release(n: Long): Unit = if (n > 0) held.addAndGet(-n)
}

object HeapBudget {
  private val perSetting = new ConcurrentHashMap[(Double, Double), HeapBudget]()

  /**
   * The JVM's budget for `fraction` of its maximum heap, lowered to keep Spark's live objects and the tables within
   * `maxLiveFraction` of the old generation (every task of an executor shares one).
   */
  def of(fraction: Double, maxLiveFraction: Double): HeapBudget =
    perSetting.computeIfAbsent(
      (fraction, maxLiveFraction),
      { _ =>
        val heapShare = (Runtime.getRuntime.maxMemory * fraction).toLong
        if (maxLiveFraction >= 1.0) new HeapBudget(heapShare)
        else {
          lazy val budget: HeapBudget = new HeapBudget(
            heapShare,
            LiveHeapCeiling.ofThisJvm(maxLiveFraction, () => budget.heldBytes)
          )
          budget
        }
      }
    )
}
