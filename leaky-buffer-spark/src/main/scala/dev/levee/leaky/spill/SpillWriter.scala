package dev.levee.leaky.spill

import java.io.{BufferedOutputStream, DataOutputStream, FileOutputStream}

import dev.levee.leaky.table.{RecordFormat, RecordVisitor}
import dev.levee.leaky.value.ValueEncoder
import org.apache.spark.serializer.SerializerInstance

/**
 * Writes one spill run: for each key in hash order
 * [1][hash: int][key length: int][encoded key][records as in memory...][EndOfKey], then [0].
 * Values are copied as the bytes they already are: spilling never deserializes a value.
 *
 * Keys go through the values' compact [[ValueEncoder]], not the serializer: a small table on a tight heap spills
 * often, and every run repeats most keys, so a spill writes (and the merge reads back) each key many times. Measured
 * (JFR, 56 MB executors): Kryo's per-call reset and copy were most of the spill writer's time.
 */
final class SpillWriter(target: SpillFile, serializer: SerializerInstance, bufferSize: Int) {
  private val out = new DataOutputStream(
    target.wrap(new BufferedOutputStream(new FileOutputStream(target.file), bufferSize))
  )
  private val header = new Array[Byte](5)
  private val keyEncoder = new ValueEncoder(serializer)

  private val copier = new RecordVisitor {
    override def record(tag: Int, bytes: Array[Byte], offset: Int, length: Int): Unit = {
      val end = RecordFormat.writeHeader(header, 0, tag, length)
      out.write(header, 0, end)
      out.write(bytes, offset, length)
    }
  }

  def writeKey(hash: Int, key: Any)(records: RecordVisitor => Unit): Unit = {
    keyEncoder.encode(key)
    out.writeByte(1)
    out.writeInt(hash)
    out.writeInt(keyEncoder.length)
    out.write(keyEncoder.bytes, 0, keyEncoder.length)
    keyEncoder.shrink()
    records(copier)
    out.writeByte(RecordFormat.EndOfKey)
  }

  def close(): Unit = {
    out.writeByte(0)
    out.close()
  }
}
