package org.apache.spark.shuffle.levee

import org.apache.spark.shuffle.BaseShuffleHandle

/**
 * A shuffle whose map tasks group their output by key ([[dev.levee.leaky.mapside.MapSideGrouper]]) and whose
 * reads are the leaky table's: decided once, on the driver, so every map task and every reader of the shuffle agree
 * on what its records are. The delegate's own handle travels inside for its writer.
 */
private[levee] final class GroupedShuffleHandle[K, V, C](
    val delegateHandle: BaseShuffleHandle[K, V, C]
) extends BaseShuffleHandle[K, V, C](delegateHandle.shuffleId, delegateHandle.dependency)
