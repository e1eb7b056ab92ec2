package dev.levee.sponge;

/**
 * Every Hadoop configuration key SpongeFiles read, with its default. Sizes accept Hadoop's binary
 * suffixes ({@code 64k}, {@code 1m}, {@code 2g}); booleans accept exactly {@code true} or {@code
 * false}.
 */
public final class SpongeConfigKeys {
  private SpongeConfigKeys() {}

  /**
   * Bytes per chunk, and the size of a file's write buffer. 4k..1g. Default {@value
   * #CHUNK_SIZE_DEFAULT}.
   */
  public static final String CHUNK_SIZE = "levee.sponge.chunk.size";

  public static final String CHUNK_SIZE_DEFAULT = "1m";

  /** Use this node's shared-memory sponge. Default {@value #LOCAL_ENABLED_DEFAULT}. */
  public static final String LOCAL_ENABLED = "levee.sponge.local.enabled";

  public static final boolean LOCAL_ENABLED_DEFAULT = true;

  /**
   * Directory (on tmpfs) holding the node's sponge pool; every task and the sponge server on a node
   * must name the same one. Default {@value #LOCAL_POOL_DIR_DEFAULT}.
   */
  public static final String LOCAL_POOL_DIR = "levee.sponge.local.pool.dir";

  public static final String LOCAL_POOL_DIR_DEFAULT = "/dev/shm/levee-sponge";

  /**
   * Memory in the node's sponge pool, rounded down to whole chunks; at least one chunk. Must be the
   * same in every process on the node. Default {@value #LOCAL_POOL_SIZE_DEFAULT}.
   */
  public static final String LOCAL_POOL_SIZE = "levee.sponge.local.pool.size";

  public static final String LOCAL_POOL_SIZE_DEFAULT = "1g";

  /**
   * Spill to other nodes' sponges (needs a remote memory client). Default {@value
   * #REMOTE_ENABLED_DEFAULT}.
   */
  public static final String REMOTE_ENABLED = "levee.sponge.remote.enabled";

  public static final boolean REMOTE_ENABLED_DEFAULT = true;

  /** Spill to local disk when memory is full. Default {@value #DISK_ENABLED_DEFAULT}. */
  public static final String DISK_ENABLED = "levee.sponge.disk.enabled";

  public static final boolean DISK_ENABLED_DEFAULT = true;

  /**
   * Comma-separated local directories for disk chunks (a task's local dirs, so the framework cleans
   * them up); files are spread over them round-robin. Default empty: {@code
   * ${java.io.tmpdir}/levee-sponge}.
   */
  public static final String DISK_DIRS = "levee.sponge.disk.dirs";

  /** Spill to a Hadoop FileSystem as the last resort. Default {@value #DFS_ENABLED_DEFAULT}. */
  public static final String DFS_ENABLED = "levee.sponge.dfs.enabled";

  public static final boolean DFS_ENABLED_DEFAULT = true;

  /**
   * Directory for last-resort chunks; a path on {@code fs.defaultFS} or a full URI ({@code
   * hdfs://nn/tmp/x}). Default {@value #DFS_DIR_DEFAULT}.
   */
  public static final String DFS_DIR = "levee.sponge.dfs.dir";

  public static final String DFS_DIR_DEFAULT = "/tmp/levee-sponge";

  /**
   * Non-local chunk writes a file may have queued or running before the writer blocks (each holds
   * one chunk buffer). 1..64. Default {@value #WRITE_MAX_IN_FLIGHT_DEFAULT}.
   */
  public static final String WRITE_MAX_IN_FLIGHT = "levee.sponge.write.max-in-flight-chunks";

  public static final int WRITE_MAX_IN_FLIGHT_DEFAULT = 2;

  /**
   * Fetch the next non-local chunk while the current one is read. Default {@value
   * #READ_PREFETCH_DEFAULT}.
   */
  public static final String READ_PREFETCH = "levee.sponge.read.prefetch";

  public static final boolean READ_PREFETCH_DEFAULT = true;

  /**
   * Host name written into chunk owner entries; must match what the node's sponge server uses.
   * Default empty: the canonical local host name.
   */
  public static final String OWNER_HOST = "levee.sponge.owner.host";
}
