package dev.levee.leaky.join

import scala.collection.mutable.ArrayBuffer

import dev.levee.leaky.spill.{SpillStorage, Spool}

/**
 * The spools of one task's join, reused from one key to the next (only the keys of one hash are alive at once, so a
 * task holds two spools, a few more on hash collisions). [[close]] at task end empties them all, deleting their
 * files, whether or not the output was read to the end.
 */
final class SpoolPool(storage: SpillStorage, memoryLimit: Int, fileBufferSize: Int) {
  private val all = new ArrayBuffer[Spool]()
  private val free = new ArrayBuffer[Spool]()

  def acquire(): Spool =
    if (free.nonEmpty) free.remove(free.length - 1)
    else { val s = new Spool(storage, memoryLimit, fileBufferSize); all += s; s }

  def release(s: Spool): Unit = { s.reset(); free += s }

  def created: Int = all.size

  def close(): Unit = all.foreach(_.reset())
}
