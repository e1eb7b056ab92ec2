package dev.levee.leaky.spill

import scala.collection.mutable.ArrayBuffer

import dev.levee.leaky.table.GroupBuilder

/**
 * Merges hash-ordered runs into whole groups. All runs advance together through one hash
 * value at a time; keys that share a hash but are not equal get separate groups, so hash
 * collisions are correct, and only the groups of one hash value are alive at once.
 */
final class HashOrderedMerge[K, R](
    sources: Seq[SortedGroupSource[K]],
    newBuilder: () => GroupBuilder[R]
) extends Iterator[(K, R)] {

  private val heap = new java.util.PriorityQueue[SortedGroupSource[K]](
    math.max(1, sources.size),
    (a: SortedGroupSource[K], b: SortedGroupSource[K]) =>
      Integer.compare(a.currentHash, b.currentHash)
  )
  sources.foreach(s => if (s.hasCurrent) heap.add(s))

  private val ready = new ArrayBuffer[(K, R)]()
  private var cursor = 0

  override def hasNext: Boolean = cursor < ready.length || { fill(); cursor < ready.length }

  override def next(): (K, R) = {
    if (!hasNext) throw new NoSuchElementException("no more groups")
    val g = ready(cursor)
    ready(cursor) = null
    cursor += 1
    g
  }

  private def fill(): Unit = {
    ready.clear()
    cursor = 0
    if (heap.isEmpty) return
    val hash = heap.peek().currentHash
    val keys = new ArrayBuffer[K](1)
    val builders = new ArrayBuffer[GroupBuilder[R]](1)
    val touched = new ArrayBuffer[SortedGroupSource[K]]()
    while (!heap.isEmpty && heap.peek().currentHash == hash) touched += heap.poll()
    touched.foreach { source =>
      while (source.hasCurrent && source.currentHash == hash) {
        val key = source.currentKey
        var i = keys.indexWhere(k => k == key)
        if (i < 0) { keys += key; builders += newBuilder(); i = keys.length - 1 }
        source.visitCurrent(builders(i))
        source.advance()
      }
      if (source.hasCurrent) heap.add(source)
    }
    var i = 0
    while (i < keys.length) { ready += ((keys(i), builders(i).result())); i += 1 }
  }

  def close(): Unit = sources.foreach(_.close())
}
