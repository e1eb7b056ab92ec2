package org.apache.pig.backend.hadoop.executionengine.mapReduceLayer;

/**
 * The two package-private fields of Pig's MapReduce operators that Piranha's planner reads and
 * writes; nothing else lives here (dev.levee.piranha.pig holds the logic).
 */
public final class PiranhaMroAccess {
  private PiranhaMroAccess() {}

  /** The LIMIT Pig pushed into this job's sort, or -1. */
  public static long limit(MapReduceOper mro) {
    return mro.limit;
  }

  public static void setRequestedParallelism(MapReduceOper mro, int parallelism) {
    mro.requestedParallelism = parallelism;
  }
}
