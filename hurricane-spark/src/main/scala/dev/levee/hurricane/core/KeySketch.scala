package dev.levee.hurricane.core

/**
 * How many distinct keys a worker has read, estimated in 512 bytes (a HyperLogLog of 512 registers: about 5 %
 * standard error; Flajolet et al., "HyperLogLog: the analysis of a near-optimal cardinality estimation algorithm",
 * AofA 2007, with linear counting below 2.5 registers' worth). An aggregation's merge combines every key of every
 * worker's partial again, so distinct keys per record read is what a clone would add to its owner's serial merge;
 * the [[ClonePolicy]] weighs it. Fed by one thread (the task's), read by the same thread when it asks for chunks.
 */
final class KeySketch {
  import KeySketch._

  private val registers = new Array[Byte](Registers)
  private var seen = 0L

  /** One record's key; only its `hashCode` is used (mixed, since one partition's hash codes share a residue). */
  def add(key: Any): Unit = {
    seen += 1
    val h = mix(if (key == null) 0L else key.hashCode.toLong)
    val register = (h >>> (64 - Bits)).toInt
    // Leading zeros of the remaining bits, plus one; a sentinel bit bounds it at 64 - Bits + 1.
    val rank = java.lang.Long.numberOfLeadingZeros((h << Bits) | (1L << (Bits - 1))) + 1
    if (rank > registers(register)) registers(register) = rank.toByte
  }

  /** Records added. */
  def records: Long = seen

  /** Estimated distinct keys among them, never more than the records. */
  def keys: Long = {
    var sum = 0.0
    var zeros = 0
    var i = 0
    while (i < Registers) {
      sum += 1.0 / (1L << registers(i))
      if (registers(i) == 0) zeros += 1
      i += 1
    }
    val raw = Alpha * Registers.toDouble * Registers / sum
    val estimate =
      if (raw <= 2.5 * Registers && zeros > 0) Registers * math.log(Registers.toDouble / zeros)
      else raw
    math.min(seen, math.round(estimate))
  }

  /** A read of the records so far, as the worker reports it. */
  def load: WorkerLoad = WorkerLoad(records, keys)
}

object KeySketch {
  private val Bits = 9
  private val Registers = 1 << Bits
  private val Alpha = 0.7213 / (1 + 1.079 / Registers)

  /** SplitMix64's finalizer (Stafford's Mix13): a bijection, so distinct hash codes stay distinct. */
  private def mix(x: Long): Long = {
    val a = (x ^ (x >>> 30)) * 0xbf58476d1ce4e5b9L
    val b = (a ^ (a >>> 27)) * 0x94d049bb133111ebL
    b ^ (b >>> 31)
  }
}

/**
 * What a worker reports with each request for chunks: records it has read and the distinct keys among them
 * (estimated). `WorkerLoad.Unknown` for a read whose merge does not grow with its keys.
 */
final case class WorkerLoad(records: Long, keys: Long) {
  require(
    records >= 0 && keys >= 0 && keys <= records,
    s"a load of $records records and $keys distinct keys: both at least 0, keys at most records"
  )
}

object WorkerLoad {
  val Unknown: WorkerLoad = WorkerLoad(0, 0)
}
