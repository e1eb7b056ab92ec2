package org.apache.spark.shuffle.levee

import dev.levee.hurricane.core.{KeySketch, WorkerLoad}

/**
 * What one worker of a bag tells the clone policy about its keys: for a shape that merges by key, the records it
 * has read and their distinct keys (a [[KeySketch]] fed from its streams); otherwise nothing, at no cost.
 */
private[levee] final class KeyReport(shape: BagShape[_, _, _]) {
  private val sketch = if (shape.mergesByKey) new KeySketch else null

  def load: WorkerLoad = if (sketch == null) WorkerLoad.Unknown else sketch.load

  /** The stream, its keys counted as the worker pulls them. */
  def observe[K, C](stream: Iterator[Product2[K, C]]): Iterator[Product2[K, C]] =
    if (sketch == null) stream
    else
      stream.map { record =>
        sketch.add(record._1)
        record
      }
}
