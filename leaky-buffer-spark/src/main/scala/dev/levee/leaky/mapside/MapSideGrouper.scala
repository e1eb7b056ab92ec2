package dev.levee.leaky.mapside

import dev.levee.leaky.LeakyConf
import dev.levee.leaky.memory.{HeapBudget, PagePool}
import dev.levee.leaky.table.{GroupRunLayout, KeyIndex, RecordFormat}
import dev.levee.leaky.value.ValueEncoder
import org.apache.spark.memory.{MemoryConsumer, MemoryMode, TaskMemoryManager}
import org.apache.spark.serializer.SerializerInstance

/**
 * The map side of a shuffle the leaky table will read without a map-side combine (groupByKey and the like): groups a
 * map task's records by key in a small leaky table of its own and writes each key once, its values packed as the
 * table's records ([[ValuePack]]). The reduce side then looks a key up once per pack instead of once per value and
 * copies the values in as they are, never encoding them again; the key goes over the network once per pack.
 *
 * Why this is not Spark's map-side combine: the values stay serialized bytes in pages, so grouping costs no object
 * per value and no collection per key, which is what made Spark leave groupByKey's map side uncombined. Spark SQL's
 * partial aggregation (a DataFrame's `collect_list`) does the same grouping with its own rows.
 *
 * Bounded: the table holds at most `mapSideGroupingMemory`, taken from the task's execution memory and the JVM's
 * [[HeapBudget]] like any leaky table; full, it writes out what it holds and starts again (a partial group is a
 * valid pack, the reduce side merges them), so it never spills. A map task whose keys barely repeat (fewer than
 * [[MapSideGrouper.MinValuesPerKey]] values per key in its first full table, or at its end) gains nothing from
 * grouping: from then on each value goes out alone, as a one-value pack, with no lookup.
 *
 * Single-threaded, one per map task. Spills asked for by other consumers of the task are declined: this table can
 * only empty itself into the writer that is pulling from it.
 */
final class MapSideGrouper[K](
    taskMemoryManager: TaskMemoryManager,
    serializer: SerializerInstance,
    conf: LeakyConf,
    heapBudget: HeapBudget
) extends MemoryConsumer(taskMemoryManager, MemoryMode.ON_HEAP) {
  import MapSideGrouper._

  private val encoder = new ValueEncoder(serializer)
  private val keys = new KeyIndex[K]
  private val layout = new GroupRunLayout(
    conf.pageSize,
    conf.maxRunSegment,
    if (conf.pagePool) Some(PagePool.shared(conf.pageSize)) else None
  )
  private var granted = 0L
  private var recordsInTable = 0L
  private var grouping = true
  private var decided = false
  private var released = false

  private var recordsIn = 0L
  private var packsOut = 0L
  private var peak = 0L

  def records: Long = recordsIn
  def packs: Long = packsOut
  def isGrouping: Boolean = grouping
  def peakMemoryBytes: Long = peak

  /**
   * `input` as packs: each key of a full table once (in first-seen order), or each value alone once grouping has
   * stopped. Memory is returned when the output is exhausted, or by [[release]].
   */
  def group(input: Iterator[Product2[K, Any]]): Iterator[Product2[K, Array[Byte]]] =
    new Iterator[Product2[K, Array[Byte]]] {
      private var drain: Iterator[Product2[K, Array[Byte]]] = Iterator.empty
      private var waiting: Product2[K, Any] = _

      override def hasNext: Boolean = drain.hasNext || refill()

      override def next(): Product2[K, Array[Byte]] = {
        if (!hasNext) throw new NoSuchElementException("no more packs")
        packsOut += 1
        drain.next()
      }

      /** Sets `drain` to the next packs: a full table's, or once grouping has stopped, every value alone. */
      private def refill(): Boolean = {
        if (keys.size > 0) { keys.recycle(); layout.recycle(); recordsInTable = 0 }
        if (!grouping) return passThrough()
        if (waiting != null) {
          val r = waiting
          waiting = null
          if (!add(r)) { drain = Iterator.single(alone(r)); return true }
        }
        while (input.hasNext) {
          val r = input.next()
          recordsIn += 1
          if (!add(r)) {
            if (keys.size == 0) {
              drain = Iterator.single(alone(r)); return true
            } // larger than the whole table
            waiting = r
            decide()
            drain = packsOfTable()
            return true
          }
        }
        if (keys.size > 0) {
          decide()
          drain = packsOfTable()
          true
        } else {
          release()
          false
        }
      }

      private def passThrough(): Boolean = {
        release()
        val first = if (waiting == null) Iterator.empty else Iterator.single(waiting)
        waiting = null
        drain = (first ++ input.map { r => recordsIn += 1; r }).map(alone)
        drain.hasNext
      }
    }

  /** Returns every byte this grouper holds to Spark and the heap budget; safe to call more than once. */
  def release(): Unit = if (!released) {
    released = true
    peak = math.max(peak, held)
    keys.clear()
    layout.clear()
    if (granted > 0) { freeMemory(granted); heapBudget.release(granted); granted = 0 }
  }

  override def spill(size: Long, trigger: MemoryConsumer): Long = 0L

  /** Buffers `r` in the table; false (and nothing buffered) if the table cannot take it. */
  private def add(r: Product2[K, Any]): Boolean = {
    encoder.encode(r._2)
    val length = encoder.length
    if (!room(RecordFormat.recordSize(length))) return false
    val id = keys.idOf(r._1)
    layout.ensureKey(id)
    layout.append(id, 0, encoder.bytes, 0, length)
    recordsInTable += 1
    encoder.shrink()
    true
  }

  private def held: Long = keys.memoryBytes + layout.memoryBytes

  /** Whether a record of `size` bytes fits, growing the grant up to the configured bound if it must. */
  private def room(size: Int): Boolean = {
    val needed = held + layout.worstCaseAllocation(size)
    if (needed <= granted) return true
    if (needed > conf.mapSideGroupingMemory) return false
    val ask = math.min(conf.mapSideGroupingMemory, math.max(needed, granted + GrantStep)) - granted
    val fromSpark = acquireMemory(ask)
    val allowed = heapBudget.acquireUpTo(fromSpark)
    if (allowed < fromSpark) freeMemory(fromSpark - allowed)
    granted += allowed
    peak = math.max(peak, held)
    needed <= granted
  }

  /** Grouping pays only where keys repeat: decided on the first table written out, then kept. */
  private def decide(): Unit = if (!decided) {
    decided = true
    if (recordsInTable < MinValuesPerKey * keys.size) grouping = false
  }

  private def packsOfTable(): Iterator[Product2[K, Array[Byte]]] = {
    val n = keys.size
    new Iterator[Product2[K, Array[Byte]]] {
      private var id = 0
      override def hasNext: Boolean = id < n
      override def next(): Product2[K, Array[Byte]] = {
        val pack = (keys.key(id), layout.runBytes(id))
        id += 1
        pack
      }
    }
  }

  private def alone(r: Product2[K, Any]): Product2[K, Array[Byte]] = {
    encoder.encode(r._2)
    val pack = ValuePack.single(encoder.bytes, encoder.length)
    encoder.shrink()
    (r._1, pack)
  }
}

object MapSideGrouper {

  /**
   * Values per key below which grouping stops. At 2 the reduce side looks up at most half as many keys as there
   * are values, against the map side's one lookup per value: below it the two sides together do more work than
   * the reduce side alone did. Spark SQL stops its partial aggregation by a similar rule.
   */
  val MinValuesPerKey = 2

  /** Asked from Spark at a time, so the grant does not grow by one record's worth per call. */
  private val GrantStep = 1L << 20
}
