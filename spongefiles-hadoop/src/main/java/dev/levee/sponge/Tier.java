package dev.levee.sponge;

/** Where a chunk can live, nearest (fastest) first: the order in which a SpongeFile tries them. */
public enum Tier {
  /** This node's shared-memory sponge, mapped into the task: a memcpy, no server round trip. */
  LOCAL_MEMORY,
  /**
   * This node's sponge reached through its sponge server over loopback, for a task that may not map
   * the pool (another user's task on a secure cluster): the same memory, one copy more, and each
   * chunk guarded by a capability like a remote one ({@code levee.sponge.local.access}).
   */
  LOCAL_SERVER,
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
