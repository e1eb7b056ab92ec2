package dev.levee.leaky.spill

import java.io.{BufferedOutputStream, DataOutputStream, FileOutputStream}
import java.nio.ByteBuffer

import dev.levee.leaky.table.{RecordFormat, RecordVisitor}
import org.apache.spark.serializer.SerializerInstance

/**
 * Writes one spill run: for each key in hash order
 * [1][hash: int][key length: int][serialized key][records as in memory...][EndOfKey], then [0].
 * Values are copied as the bytes they already are: spilling never deserializes a value.
 */
final class SpillWriter(target: SpillFile, serializer: SerializerInstance, bufferSize: Int) {
  private val out = new DataOutputStream(
    target.wrap(new BufferedOutputStream(new FileOutputStream(target.file), bufferSize)))
  private val header = new Array[Byte](5)

  private val copier = new RecordVisitor {
    override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit = {
      val end = RecordFormat.writeHeader(header, 0, tag, length)
      out.write(header, 0, end)
      out.write(bytes, offset, length)
    }
  }

  def writeKey(hash: Int, key: Any)(records: RecordVisitor => Unit): Unit = {
    val k: ByteBuffer = serializer.serialize[Any](key)
    out.writeByte(1)
    out.writeInt(hash)
    out.writeInt(k.remaining())
    if (k.hasArray) out.write(k.array(), k.arrayOffset() + k.position(), k.remaining())
    else { val copy = new Array[Byte](k.remaining()); k.get(copy); out.write(copy) }
    records(copier)
    out.writeByte(RecordFormat.EndOfKey)
  }

  def close(): Unit = {
    out.writeByte(0)
    out.close()
  }
}
