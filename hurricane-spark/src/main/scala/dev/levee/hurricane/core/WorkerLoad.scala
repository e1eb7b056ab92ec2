package dev.levee.hurricane.core

/**
 * What a worker reports with each request for chunks: records it has combined and the distinct keys among them
 * (as its combiner map created them). `WorkerLoad.Unknown` for a read whose merge does not grow with its keys.
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
