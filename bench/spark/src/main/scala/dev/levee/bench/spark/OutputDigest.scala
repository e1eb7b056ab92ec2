package dev.levee.bench.spark

/**
 * An order-free digest of a job's whole output, folded inside each task and summed on the driver.
 *
 * Why not one digest per key: collecting a map of every key makes each reduce task hold its whole output as live
 * objects until it ends (100,000 keys in a 64 MB executor at one reduce task), a memory load the paper's jobs, which
 * write their output, do not carry and which decided which variant died first. A sum of 64-bit mixes is as
 * order-free and still changes if a value is lost, duplicated, moved to another key or a group is split.
 */
final case class OutputDigest(groups: Long, values: Long, bytes: Long, checksum: Long) {
  def +(o: OutputDigest): OutputDigest =
    OutputDigest(groups + o.groups, values + o.values, bytes + o.bytes, checksum + o.checksum)
}

object OutputDigest {
  val Empty: OutputDigest = OutputDigest(0, 0, 0, 0)

  /** A 64-bit finaliser (MurmurHash3's fmix64): sums of mixed values collide only by chance. */
  def mix(x: Long): Long = {
    var h = x
    h ^= h >>> 33
    h *= 0xff51afd7ed558ccdL
    h ^= h >>> 33
    h *= 0xc4ceb9fe1a85ec53L
    h ^ (h >>> 33)
  }

  def mix(a: Long, b: Long): Long = mix(a * 0x9e3779b97f4a7c15L + b)

  /** Accumulates one task's digest with no allocation per value. */
  final class Builder {
    private var groups, values, bytes, checksum = 0L

    /** Closes one group of `n` values of `key` (each added with `value`): a group split in two counts twice. */
    def group(key: String, n: Long): Unit = {
      groups += 1
      checksum += mix(key.hashCode.toLong, n)
    }

    def value(key: String, v: String): Unit = {
      values += 1
      bytes += v.length
      checksum += mix(key.hashCode.toLong, v.hashCode.toLong)
    }

    /** A scalar result per key (a count, a sum): one value. */
    def keyed(key: String, v: Long): Unit = {
      values += 1
      checksum += mix(key.hashCode.toLong, mix(v))
    }

    def pair(key: String, v: String, w: String): Unit = {
      values += 1
      bytes += v.length + w.length
      checksum += mix(mix(key.hashCode.toLong, v.hashCode.toLong), w.hashCode.toLong)
    }

    def result: OutputDigest = OutputDigest(groups, values, bytes, checksum)
  }
}
