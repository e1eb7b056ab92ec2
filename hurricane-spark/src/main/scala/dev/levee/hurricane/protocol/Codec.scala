package dev.levee.hurricane.protocol

import java.io.{
  ByteArrayInputStream,
  ByteArrayOutputStream,
  DataInputStream,
  DataOutputStream,
  IOException
}

import dev.levee.hurricane.core.{MapRange, WorkerLoad}

/**
 * Messages cross Spark's plugin RPC as byte arrays. Spark deserializes an ask's payload before any plugin code
 * runs, with a class loader that may not see a jar added by `--jars`; a `byte[]` always loads, and the driver
 * validates every field here instead of trusting a task's object graph.
 */
object Codec {
  private val Version: Byte = 2
  private val MaxEntries = 1 << 24

  def encode(request: Request): Array[Byte] = write { out =>
    request match {
      case Open(bag, sizes, keyed) =>
        out.writeByte(1); writeBag(out, bag); out.writeInt(sizes.length);
        sizes.foreach(out.writeLong); out.writeBoolean(keyed)
      case Grant(bag, worker, attempt, position, load) =>
        out.writeByte(2); writeBag(out, bag); out.writeInt(worker); out.writeLong(attempt);
        out.writeInt(position); out.writeLong(load.records); out.writeLong(load.keys)
      case CloneStates(bag)      => out.writeByte(3); writeBag(out, bag)
      case Adopt(bag, worker)    => out.writeByte(4); writeBag(out, bag); out.writeInt(worker)
      case AttemptEnded(attempt) => out.writeByte(5); out.writeLong(attempt)
    }
  }

  def decodeRequest(bytes: Array[Byte]): Request = read(bytes) { in =>
    in.readByte() match {
      case 1 =>
        val bag = readBag(in)
        val sizes = Array.fill(count(in))(in.readLong())
        Open(bag, sizes, in.readBoolean())
      case 2 =>
        Grant(
          readBag(in),
          in.readInt(),
          in.readLong(),
          in.readInt(),
          readLoad(in)
        )
      case 3 => CloneStates(readBag(in))
      case 4 => Adopt(readBag(in), in.readInt())
      case 5 => AttemptEnded(in.readLong())
      case t => throw new IOException(s"unknown request type $t")
    }
  }

  def encode(reply: Reply): Array[Byte] = write { out =>
    reply match {
      case Opened(chunks)               => out.writeByte(1); out.writeInt(chunks)
      case Granted(from, ranges, whole) =>
        out.writeByte(2); out.writeInt(from); writeRanges(out, ranges); out.writeBoolean(whole)
      case WaitAndRetry   => out.writeByte(3)
      case Complete       => out.writeByte(4)
      case UnknownBag     => out.writeByte(5)
      case Clones(states) =>
        out.writeByte(6)
        out.writeInt(states.size)
        states.foreach {
          case CloneRunning(w)   => out.writeByte(1); out.writeInt(w)
          case CloneDone(w, rdd) => out.writeByte(2); out.writeInt(w); out.writeInt(rdd)
          case CloneGivenUp(w)   => out.writeByte(3); out.writeInt(w)
        }
      case Adopted(ranges) => out.writeByte(7); writeRanges(out, ranges)
      case Ack             => out.writeByte(8)
    }
  }

  def decodeReply(bytes: Array[Byte]): Reply = read(bytes) { in =>
    in.readByte() match {
      case 1 => Opened(in.readInt())
      case 2 => Granted(in.readInt(), readRanges(in), in.readBoolean())
      case 3 => WaitAndRetry
      case 4 => Complete
      case 5 => UnknownBag
      case 6 =>
        Clones(IndexedSeq.fill(count(in)) {
          in.readByte() match {
            case 1 => CloneRunning(in.readInt())
            case 2 => CloneDone(in.readInt(), in.readInt())
            case 3 => CloneGivenUp(in.readInt())
            case t => throw new IOException(s"unknown clone state $t")
          }
        })
      case 7 => Adopted(readRanges(in))
      case 8 => Ack
      case t => throw new IOException(s"unknown reply type $t")
    }
  }

  private def write(body: DataOutputStream => Unit): Array[Byte] = {
    val bytes = new ByteArrayOutputStream(64)
    val out = new DataOutputStream(bytes)
    out.writeByte(Version)
    body(out)
    out.flush()
    bytes.toByteArray
  }

  private def read[T](bytes: Array[Byte])(body: DataInputStream => T): T = {
    val in = new DataInputStream(new ByteArrayInputStream(bytes))
    val version = in.readByte()
    if (version != Version)
      throw new IOException(
        s"Hurricane message version $version, this side speaks $Version (mixed jars?)"
      )
    val message = body(in)
    if (in.available() != 0)
      throw new IOException(s"${in.available()} trailing bytes after $message")
    message
  }

  private def count(in: DataInputStream): Int = {
    val n = in.readInt()
    if (n < 0 || n > MaxEntries) throw new IOException(s"entry count $n outside [0, $MaxEntries]")
    n
  }

  private def readLoad(in: DataInputStream): WorkerLoad = {
    val records = in.readLong()
    val keys = in.readLong()
    if (records < 0 || keys < 0 || keys > records)
      throw new IOException(
        s"a load of $records records and $keys keys: both at least 0, keys at most records"
      )
    WorkerLoad(records, keys)
  }

  private def writeBag(out: DataOutputStream, b: BagKey): Unit =
    Seq(b.stageId, b.stageAttempt, b.taskPartition, b.shuffleId, b.reducePartition, b.occurrence)
      .foreach(out.writeInt)

  private def readBag(in: DataInputStream): BagKey =
    BagKey(in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readInt(), in.readInt())

  private def writeRanges(out: DataOutputStream, ranges: IndexedSeq[MapRange]): Unit = {
    out.writeInt(ranges.size)
    ranges.foreach { r => out.writeInt(r.startMap); out.writeInt(r.endMap); out.writeLong(r.bytes) }
  }

  private def readRanges(in: DataInputStream): IndexedSeq[MapRange] =
    IndexedSeq.fill(count(in))(MapRange(in.readInt(), in.readInt(), in.readLong()))
}
