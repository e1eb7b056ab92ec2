package dev.levee.hurricane.driver

import dev.levee.hurricane.protocol.BagKey

/** Starts clone jobs; the Spark side lives in the framework package (it builds an RDD over a ShuffleDependency). */
trait CloneLauncher {

  /**
   * Starts a one-task job that runs worker `worker` of `bag` and caches its partial. `ended(success)` is called once
   * the job ends. Returns the clone RDD's id and a way to cancel its job, or None when the shuffle is not known
   * here (then no clone starts).
   */
  def launch(bag: BagKey, worker: Int, ended: Boolean => Unit): Option[(Int, () => Unit)]

  /** Drops a clone's cached partial (its bag is finished). */
  def release(rddId: Int): Unit

  /** Bytes of each reduce partition of `shuffleId` from the map-output statistics, when they are known. */
  def partitionBytes(shuffleId: Int): Option[Array[Long]]
}
