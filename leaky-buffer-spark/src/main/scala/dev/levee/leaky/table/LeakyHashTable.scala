package dev.levee.leaky.table

import scala.collection.mutable.ArrayBuffer

import dev.levee.leaky.LeakyConf
import dev.levee.leaky.memory.{HeapBudget, PagePool}
import dev.levee.leaky.spill.{
  HashOrderedMerge,
  SortedGroupSource,
  SpillFile,
  SpillReader,
  SpillStorage,
  SpillWriter
}
import dev.levee.leaky.value.ValueEncoder
import org.apache.spark.internal.Logging
import org.apache.spark.memory.{MemoryConsumer, MemoryMode, TaskMemoryManager}
import org.apache.spark.serializer.SerializerInstance

/**
 * The leaky buffer enabled hash table (paper section IV): keys are live objects, values are
 * kept as length-delimited serialized bytes in paged memory and are deserialized only when
 * their group is emitted.
 *
 * Memory is accounted with Spark's TaskMemoryManager the way Spark's Spillable collections
 * do it: the table may use `initialMemoryThreshold` bytes before asking, then asks for twice
 * what it holds; when Spark cannot grant enough, the table writes its keys in hash order with
 * their value bytes to a spill run and starts empty, keeping its pages and grant for the next
 * fill. Emitting merges the runs and the in-memory rest by key hash. Every grant is also taken from the JVM-wide [[HeapBudget]], so the
 * table spills where Spark's pool over-promises what a small heap can hold.
 *
 * Single-threaded, like every per-task Spark collection: forced spills requested by other
 * consumers of the same task are honoured while inserting, and declined while emitting.
 */
final class LeakyHashTable[K](
    taskMemoryManager: TaskMemoryManager,
    serializer: SerializerInstance,
    conf: LeakyConf,
    joinLayout: Boolean,
    storage: SpillStorage,
    heapBudget: HeapBudget,
    triggers: SpillTriggers
) extends MemoryConsumer(taskMemoryManager, MemoryMode.ON_HEAP)
    with Logging {

  def this(
      taskMemoryManager: TaskMemoryManager,
      serializer: SerializerInstance,
      conf: LeakyConf,
      joinLayout: Boolean,
      storage: SpillStorage,
      triggers: SpillTriggers = SpillTriggers.None
  ) =
    this(
      taskMemoryManager,
      serializer,
      conf,
      joinLayout,
      storage,
      HeapBudget.of(conf.maxHeapFraction, conf.maxLiveFraction),
      triggers
    )

  private val encoder = new ValueEncoder(serializer)

  private val keys = new KeyIndex[K]
  private val layout: ValueLayout = {
    val pool = if (conf.pagePool) Some(PagePool.shared(conf.pageSize)) else None
    if (joinLayout) new SharedAreaJoinLayout(conf.pageSize, conf.maxRunSegment, pool)
    else new GroupRunLayout(conf.pageSize, conf.maxRunSegment, pool)
  }

  private var threshold = conf.initialMemoryThreshold
  private val spills = new ArrayBuffer[SpillFile]()
  private val openRuns = new ArrayBuffer[SortedGroupSource[K]]()
  private var emitting = false
  private var freed = false

  private var records = 0L
  private var recordsSinceSpill = 0L
  private var peak = 0L
  private var spilledMemory = 0L
  private var spilledDisk = 0L

  def recordCount: Long = records
  def distinctKeysInMemory: Int = keys.size
  def spillCount: Int = spills.size
  def peakMemoryBytes: Long = math.max(peak, currentBytes)
  def memoryBytesSpilled: Long = spilledMemory
  def diskBytesSpilled: Long = spilledDisk

  /** Bytes held right now: pages, per-key arrays and the estimated key objects. */
  def currentBytes: Long = keys.memoryBytes + layout.memoryBytes

  /**
   * Buffers `value` (encoded now, see [[ValueEncoder]]) under `key`, recording that it came from
   * input `tag`. Emitted records carry the encoded bytes: decode them with a ValueDecoder.
   */
  def insert(key: K, tag: Int, value: Any): Unit = {
    encoder.encode(value)
    insertBytes(key, tag, encoder.bytes, 0, encoder.length)
    encoder.shrink()
  }

  /** Buffers an already encoded value. */
  def insertBytes(key: K, tag: Int, value: Array[Byte], offset: Int, length: Int): Unit = {
    if (tag < 0 || tag > RecordFormat.MaxTag) {
      throw new IllegalArgumentException(
        s"input tag $tag for key $key is out of range 0..${RecordFormat.MaxTag}"
      )
    }
    append(key, -1, tag, value, offset, length)
  }

  /**
   * Buffers every value of a map task's pack for `key` ([[dev.levee.leaky.mapside.ValuePack]]: the table's own
   * records, copied as they are). The key is looked up once for the pack, and again only if the table spills
   * part-way through it.
   */
  def insertPack(key: K, pack: Array[Byte]): Unit = {
    packAppender.key = key
    packAppender.id = -1
    dev.levee.leaky.mapside.ValuePack.foreach(pack, packAppender)
    packAppender.key = null.asInstanceOf[K]
  }

  private object packAppender extends RecordVisitor {
    var key: K = _
    var id: Int = -1

    override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit = {
      if (tag < 0 || tag > RecordFormat.MaxTag) {
        throw new IllegalStateException(s"corrupt value pack for key $key: input tag $tag")
      }
      id = append(key, id, tag, bytes, offset, length)
    }
  }

  /**
   * Appends one encoded value under `key` and returns the key's id. `knownId` is that id if the caller looked it up
   * before (-1 if not); it is used unless making room spilled the table, which forgets every id.
   */
  private def append(
      key: K,
      knownId: Int,
      tag: Int,
      value: Array[Byte],
      offset: Int,
      length: Int
  ): Int = {
    if (emitting) throw new IllegalStateException("cannot insert after groups() was called")
    val spillsBefore = spills.size
    if (keys.size > 0 && triggers.due(recordsSinceSpill, currentBytes - layout.spareBytes)) {
      spillInMemory(keepPages = true)
    }
    makeRoom(RecordFormat.recordSize(length))
    val id =
      if (knownId >= 0 && spills.size == spillsBefore) knownId
      else { val fresh = keys.idOf(key); layout.ensureKey(fresh); fresh }
    layout.append(id, tag, value, offset, length)
    records += 1
    recordsSinceSpill += 1
    id
  }

  /**
   * Ends insertion and returns every key once with the result of feeding its values, in
   * insertion order, to a fresh builder. Memory is released when the iterator is exhausted or
   * [[free]] is called (at task end at the latest).
   */
  def groups[R](newBuilder: () => GroupBuilder[R]): Iterator[(K, R)] = {
    emitting = true
    peak = peakMemoryBytes
    releaseUnused()
    if (spills.isEmpty) {
      val n = keys.size
      new Iterator[(K, R)] {
        private var id = 0
        override def hasNext: Boolean = id < n || { free(); false }
        override def next(): (K, R) = {
          if (id >= n) throw new NoSuchElementException("no more groups")
          val b = newBuilder()
          layout.foreachRecord(id, b)
          val group = (keys.key(id), b.result())
          id += 1
          group
        }
      }
    } else {
      openRuns ++= spills.map(f => new SpillReader[K](f, serializer, conf.spillFileBuffer))
      val sources = openRuns.toSeq :+ inMemorySource()
      val merge = new HashOrderedMerge[K, R](sources, newBuilder)
      new Iterator[(K, R)] {
        override def hasNext: Boolean = merge.hasNext || { free(); false }
        override def next(): (K, R) = merge.next()
      }
    }
  }

  /** Returns all memory to Spark and deletes spill runs; safe to call more than once. */
  def free(): Unit = if (!freed) {
    freed = true
    peak = peakMemoryBytes
    keys.clear()
    layout.clear()
    releaseReserved()
    // A task that stops early (failure, take(n)) leaves runs open: close them before deleting.
    openRuns.foreach(_.close())
    spills.foreach(_.delete())
  }

  override def spill(size: Long, trigger: MemoryConsumer): Long = {
    // Self-triggered requests are handled in makeRoom, where the table is in a known state.
    if (trigger == this || emitting || keys.size == 0) 0L
    else {
      val released = threshold - conf.initialMemoryThreshold
      spillInMemory(keepPages = false)
      math.max(0L, released)
    }
  }

  private def makeRoom(recordSize: Int): Unit = {
    val held = currentBytes
    val needed = held + layout.worstCaseAllocation(recordSize)
    if (needed > threshold || keys.isFull) {
      peak = math.max(peak, held)
      val granted = acquireMemory(2 * needed - threshold)
      val allowed = heapBudget.acquireUpTo(granted)
      if (allowed < granted) freeMemory(granted - allowed)
      threshold += allowed
      if ((needed > threshold || keys.isFull) && keys.size > 0) spillInMemory(keepPages = true)
    }
  }

  /**
   * Writes the table to a spill run and empties it. With `keepPages` (the table spilled because it is full, and will
   * fill again at once) it keeps its pages, key arrays and grant, unless the heap budget has since dropped below what
   * the tables hold; a spill another consumer asked for returns everything.
   */
  private def spillInMemory(keepPages: Boolean): Unit = {
    val held = currentBytes
    peak = math.max(peak, held)
    val target = storage.create()
    spills += target
    val writer = new SpillWriter(target, serializer, conf.spillFileBuffer)
    try {
      keys.idsByHash().foreach { id =>
        writer.writeKey(keys.hash(id), keys.key(id))(visitor => layout.foreachRecord(id, visitor))
      }
    } finally writer.close()
    spilledMemory += held
    spilledDisk += target.file.length()
    recordsSinceSpill = 0
    logInfo(
      s"Leaky table spilled ${keys.size} keys (${held >> 10} KiB in memory, " +
        s"${target.file.length() >> 10} KiB on disk) to ${target.file}; ${spills.size} runs so far"
    )
    if (keepPages && heapBudget.heldBytes <= heapBudget.currentLimit) {
      keys.recycle()
      layout.recycle()
    } else {
      keys.clear()
      layout.clear()
      releaseReserved()
    }
  }

  /**
   * Emission decodes whole groups, and one hot key's group can be large: pages kept for a fill that will not come, and
   * the grant behind them, go back before it starts.
   */
  private def releaseUnused(): Unit = {
    layout.dropSpare()
    val unused = threshold - math.max(conf.initialMemoryThreshold, currentBytes)
    if (unused > 0) { freeMemory(unused); heapBudget.release(unused); threshold -= unused }
  }

  private def releaseReserved(): Unit = {
    val reserved = threshold - conf.initialMemoryThreshold
    if (reserved > 0) { freeMemory(reserved); heapBudget.release(reserved) }
    threshold = conf.initialMemoryThreshold
  }

  /** The unspilled rest, read in the same hash order as the runs. */
  private def inMemorySource(): SortedGroupSource[K] = new SortedGroupSource[K] {
    private val order = keys.idsByHash()
    private var i = 0
    override def hasCurrent: Boolean = i < order.length
    override def currentHash: Int = keys.hash(order(i))
    override def currentKey: K = keys.key(order(i))
    override def visitCurrent(visitor: RecordVisitor): Unit =
      layout.foreachRecord(order(i), visitor)
    override def advance(): Unit = i += 1
    override def close(): Unit = ()
  }
}
