package dev.levee.sponge;

/** Where a chunk can live, nearest (fastest) first: the order in which a SpongeFile tries them. */
public enum Tier {
  /** This node's shared-memory sponge, mapped into the task: a memcpy, no server round trip. */
  LOCAL_MEMORY,
  /** Another node's sponge, through its sponge server. */
  REMOTE_MEMORY,
  /**
   * A file in one of this node's local directories; consecutive disk chunks of a SpongeFile share
   * one file.
   */
  LOCAL_DISK,
  /** A file on a Hadoop FileSystem (HDFS in production): the last resort. */
  DFS
}
