package dev.levee.leaky.spill

import java.io.{
  BufferedInputStream,
  BufferedOutputStream,
  DataInputStream,
  DataOutputStream,
  EOFException
}
import java.io.{FileInputStream, FileOutputStream}

import dev.levee.leaky.table.RecordFormat

/**
 * The serialized values of one side of one key, in the order they were appended, readable any number of times.
 * The first `memoryLimit` bytes stay in memory; the rest goes to a spill file (Spark's local dirs, compression and
 * encryption), so a side of any size costs bounded memory. Records are `[varint length][bytes]`.
 *
 * Appending ends with the first [[cursor]]; [[reset]] empties the spool (and deletes its file) for reuse.
 */
final class Spool(storage: SpillStorage, memoryLimit: Int, fileBufferSize: Int) {
  private var buf = new Array[Byte](256)
  private var len = 0
  private var file: SpillFile = _
  private var out: DataOutputStream = _
  private var sealedForReading = false
  private var count = 0L
  private var valueBytes = 0L
  private val header = new Array[Byte](5)

  def records: Long = count
  def bytes: Long = valueBytes
  def isEmpty: Boolean = count == 0

  /** Whether every record is in memory. */
  def inMemory: Boolean = file == null

  def append(b: Array[Byte], off: Int, n: Int): Unit = {
    if (sealedForReading) throw new IllegalStateException("cannot append to a spool being read")
    val headerLength = RecordFormat.writeVarint(header, 0, n)
    if (file == null && len.toLong + headerLength + n > memoryLimit) {
      file = storage.create()
      out = new DataOutputStream(
        file.wrap(new BufferedOutputStream(new FileOutputStream(file.file), fileBufferSize))
      )
    }
    if (file == null) {
      room(headerLength + n)
      System.arraycopy(header, 0, buf, len, headerLength)
      System.arraycopy(b, off, buf, len + headerLength, n)
      len += headerLength + n
    } else {
      out.write(header, 0, headerLength)
      out.write(b, off, n)
    }
    count += 1
    valueBytes += n
  }

  /** Reads every record from the first: the memory part, then the file. Close it if not read to the end. */
  def cursor(): RecordCursor = {
    if (!sealedForReading) {
      sealedForReading = true
      if (out != null) { out.close(); out = null }
    }
    new SpoolCursor
  }

  /** Empties the spool for reuse; its file, if any, is deleted. */
  def reset(): Unit = {
    if (out != null) { out.close(); out = null }
    if (file != null) { file.delete(); file = null }
    if (buf.length > Spool.KeptBytes) buf = new Array[Byte](256)
    len = 0
    count = 0
    valueBytes = 0
    sealedForReading = false
  }

  private def room(n: Int): Unit = if (buf.length - len < n) {
    buf = java.util.Arrays.copyOf(buf, math.max(len + n, math.min(memoryLimit, 2 * buf.length)))
  }

  private final class SpoolCursor extends RecordCursor {
    private var memoryPos = 0
    private var in: DataInputStream = _
    private var fileDone = file == null
    private var scratch: Array[Byte] = _
    private var current: Array[Byte] = _
    private var off = 0
    private var n = 0

    override def bytes: Array[Byte] = current
    override def offset: Int = off
    override def length: Int = n

    override def next(): Boolean =
      if (memoryPos < len) {
        var p = memoryPos
        var v = 0; var shift = 0; var b = 0
        while ({ b = buf(p); p += 1; (b & 0x80) != 0 }) { v |= (b & 0x7f) << shift; shift += 7 }
        n = v | (b << shift)
        current = buf; off = p
        memoryPos = p + n
        true
      } else if (fileDone) false
      else {
        if (in == null) {
          in = new DataInputStream(
            file.wrap(new BufferedInputStream(new FileInputStream(file.file), fileBufferSize))
          )
        }
        val first = in.read()
        if (first < 0) { close(); false }
        else {
          var v = first & 0x7f; var shift = 7; var b = first
          while ((b & 0x80) != 0) {
            b = in.readByte(); v |= (b & 0x7f) << shift; shift += 7
          }
          n = v
          if (scratch == null || scratch.length < n) scratch = new Array[Byte](math.max(n, 256))
          try in.readFully(scratch, 0, n)
          catch {
            case e: EOFException =>
              throw new java.io.IOException(s"truncated leaky join spool ${file.file}", e)
          }
          current = scratch; off = 0
          true
        }
      }

    override def close(): Unit = {
      fileDone = true
      if (in != null) { in.close(); in = null }
    }
  }
}

object Spool {

  /** Scratch kept across resets; one hot key's larger buffer is dropped with it. */
  private val KeptBytes = 1 << 20
}

/** Pull-style reading of records: `bytes(offset until offset + length)` is valid until the next call. */
trait RecordCursor {
  def next(): Boolean
  def bytes: Array[Byte]
  def offset: Int
  def length: Int
  def close(): Unit
}
