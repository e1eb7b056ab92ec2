package dev.levee.leaky.aggregate

/**
 * The map Spark itself combines shuffle records in (its size-tracking open hash map): the same hashing, the same
 * emission order and the same size estimate as a stock reduce, so a combine on arrival is stock's to the byte.
 */
trait CombinerMap[K, C] {

  /** Sets `key`'s combiner to `update(had a combiner, the combiner or null)`. */
  def changeValue(key: K, update: (Boolean, C) => C): C

  /** Estimated bytes of the map and every object it holds (sampled, as Spark's spill decisions use it). */
  def estimateSize(): Long

  def iterator: Iterator[(K, C)]
}
