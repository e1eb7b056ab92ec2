package dev.levee.leaky.spill

import java.io.{BufferedInputStream, DataInputStream, FileInputStream}

import dev.levee.leaky.table.{RecordFormat, RecordVisitor}
import dev.levee.leaky.value.ValueDecoder
import org.apache.spark.serializer.SerializerInstance

/** Streams a spill run back, one key at a time; only the current value is ever in memory. */
final class SpillReader[K](source: SpillFile, serializer: SerializerInstance, bufferSize: Int)
    extends SortedGroupSource[K] {
  private val in = new DataInputStream(
    source.wrap(new BufferedInputStream(new FileInputStream(source.file), bufferSize))
  )
  private var scratch = new Array[Byte](256)
  private val keyDecoder = new ValueDecoder(serializer)
  private var present = false
  private var recordsPending = false
  private var hash = 0
  private var key: K = _
  advance()

  override def hasCurrent: Boolean = present
  override def currentHash: Int = hash
  override def currentKey: K = key

  override def visitCurrent(visitor: RecordVisitor): Unit = {
    if (!recordsPending) throw new IllegalStateException("records of this key were already read")
    recordsPending = false
    var tag = in.readByte()
    while (tag != RecordFormat.EndOfKey) {
      val len = readVarint()
      val buf = room(len)
      in.readFully(buf, 0, len)
      visitor.record(tag, buf, 0, len)
      shrink()
      tag = in.readByte()
    }
  }

  override def advance(): Unit = {
    if (recordsPending) visitCurrent(SpillReader.Skip)
    in.readByte() match {
      case 1 =>
        hash = in.readInt()
        val len = in.readInt()
        val buf = room(len)
        in.readFully(buf, 0, len)
        key = keyDecoder.decode(buf, 0, len).asInstanceOf[K]
        shrink()
        present = true
        recordsPending = true
      case 0 =>
        present = false
        key = null.asInstanceOf[K]
        close()
      case other =>
        throw new java.io.IOException(s"Corrupt leaky spill file ${source.file}: marker $other")
    }
  }

  override def close(): Unit = { in.close(); source.delete() }

  private def readVarint(): Int = {
    var v = 0; var shift = 0; var b = 0
    while ({ b = in.readByte(); (b & 0x80) != 0 }) { v |= (b & 0x7f) << shift; shift += 7 }
    v | (b << shift)
  }

  /** One large record's scratch is not kept for the rest of the run: it would be memory outside any accounting. */
  private def shrink(): Unit = if (scratch.length > (1 << 20)) scratch = new Array[Byte](256)

  /** The scratch buffer is only valid until the next read: visitors must copy or decode. */
  private def room(n: Int): Array[Byte] = {
    if (scratch.length < n) scratch = new Array[Byte](math.max(n, scratch.length * 2))
    scratch
  }
}

object SpillReader {
  private val Skip = new RecordVisitor {
    override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit = ()
  }
}
