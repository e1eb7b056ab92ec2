package dev.levee.leaky.table

import org.apache.spark.util.SizeEstimator

/**
 * The live keys of a leaky table: an open-addressing hash index from key to a dense id
 * (0, 1, 2, ... in first-seen order). Keys are the control information the paper leaks as
 * objects; everything else about a key is a slot in primitive arrays.
 */
final class KeyIndex[K] {
  import KeyIndex._

  private var slots = new Array[Int](InitialSlots) // dense id + 1; 0 = empty
  private var mask = InitialSlots - 1
  private var keys = new Array[AnyRef](InitialSlots / 2)
  private var hashes = new Array[Int](InitialSlots / 2)
  private var count = 0
  private var sampledKeyBytes = 0L
  private var samples = 0

  def size: Int = count
  def isFull: Boolean = count >= MaxKeys
  def key(id: Int): K = keys(id).asInstanceOf[K]
  def hash(id: Int): Int = hashes(id)

  /** Arrays plus an estimate of the key objects (sampled with Spark's SizeEstimator). */
  def memoryBytes: Long = {
    val perKey = if (samples == 0) 0L else sampledKeyBytes / samples
    4L * slots.length + 12L * keys.length + perKey * count
  }

  /** Returns the id of `key`, adding it if absent. */
  def idOf(key: K): Int = {
    val h = hashOf(key)
    var pos = mix(h) & mask
    while (true) {
      val s = slots(pos)
      if (s == 0) return add(key, h, pos)
      val id = s - 1
      if (hashes(id) == h && equal(keys(id), key)) return id
      pos = (pos + 1) & mask
    }
    -1
  }

  /** Ids sorted by key hash (ties by id): the order spills are written and merged in. */
  def idsByHash(): Array[Int] = {
    val packed = new Array[Long](count)
    var i = 0
    while (i < count) { packed(i) = (hashes(i).toLong << 32) | i; i += 1 }
    java.util.Arrays.sort(packed)
    val ids = new Array[Int](count) // a loop, not map: ArrayOps.map boxes every id
    i = 0
    while (i < count) { ids(i) = packed(i).toInt; i += 1 }
    ids
  }

  /** Forgets every key but keeps the arrays' capacity, for a refill with about as many keys. */
  def recycle(): Unit = {
    java.util.Arrays.fill(slots, 0)
    java.util.Arrays.fill(keys, 0, count, null)
    count = 0
  }

  def clear(): Unit = {
    slots = new Array[Int](InitialSlots); mask = InitialSlots - 1
    keys = new Array[AnyRef](InitialSlots / 2); hashes = new Array[Int](InitialSlots / 2)
    count = 0
  }

  private def add(key: K, h: Int, pos: Int): Int = {
    val id = count
    if (id == keys.length) {
      keys = java.util.Arrays.copyOf(keys, id * 2)
      hashes = java.util.Arrays.copyOf(hashes, id * 2)
    }
    keys(id) = key.asInstanceOf[AnyRef]
    hashes(id) = h
    slots(pos) = id + 1
    count += 1
    // Exponentially spaced samples: cheap, and enough to follow a drifting key size.
    if ((id & (id - 1)) == 0 || (id & 1023) == 0) {
      sampledKeyBytes += (if (key == null) 0L else SizeEstimator.estimate(key.asInstanceOf[AnyRef]))
      samples += 1
    }
    if (count * 2 > slots.length) grow()
    id
  }

  private def grow(): Unit = {
    val newSlots = new Array[Int](slots.length * 2)
    val newMask = newSlots.length - 1
    var id = 0
    while (id < count) {
      var pos = mix(hashes(id)) & newMask
      while (newSlots(pos) != 0) pos = (pos + 1) & newMask
      newSlots(pos) = id + 1
      id += 1
    }
    slots = newSlots
    mask = newMask
  }
}

object KeyIndex {
  private val InitialSlots = 128

  /** Keeps every per-key array well under 1 GiB; the table spills when it is reached. */
  val MaxKeys: Int = 1 << 26

  @inline def hashOf(key: Any): Int = if (key == null) 0 else key.hashCode()
  @inline private def mix(h: Int): Int = { val x = h * 0x9e3779b9; x ^ (x >>> 16) }
  @inline private def equal(a: AnyRef, b: Any): Boolean = if (a == null) b == null else a.equals(b)
}
