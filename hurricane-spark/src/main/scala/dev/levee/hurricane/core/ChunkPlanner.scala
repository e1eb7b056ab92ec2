package dev.levee.hurricane.core

/** A bag's chunk: the blocks of one reduce partition written by map tasks `[startMap, endMap)`. */
final case class MapRange(startMap: Int, endMap: Int, bytes: Long) {
  require(startMap < endMap)
}

/**
 * Cuts one reduce partition's map outputs into contiguous map-index ranges of about `targetBytes` each. A single
 * map output cannot be split (a block is the smallest unit a reader fetches), so a larger block is a chunk of its
 * own; empty blocks ride along with their neighbours. Sizes may be approximate (Spark averages small blocks past
 * 2000 partitions): late binding corrects a poor plan, it only costs balance.
 */
object ChunkPlanner {
  def plan(blockSizes: IndexedSeq[Long], targetBytes: Long): IndexedSeq[MapRange] = {
    require(targetBytes > 0, s"targetBytes must be > 0, got $targetBytes")
    val out = IndexedSeq.newBuilder[MapRange]
    var start = 0
    var acc = 0L
    var i = 0
    while (i < blockSizes.size) {
      val size = math.max(0L, blockSizes(i))
      if (i > start && acc > 0 && acc + size > targetBytes) {
        out += MapRange(start, i, acc)
        start = i
        acc = 0
      }
      acc += size
      i += 1
    }
    if (blockSizes.nonEmpty) out += MapRange(start, blockSizes.size, acc)
    out.result()
  }
}
