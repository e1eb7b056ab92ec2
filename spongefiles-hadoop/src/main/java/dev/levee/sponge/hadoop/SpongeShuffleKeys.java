package dev.levee.sponge.hadoop;

/**
 * Keys of the reduce-side integration. The sponge itself (pool, tiers, chunk size) is configured
 * with the {@code levee.sponge.*} keys of {@link dev.levee.sponge.SpongeConfigKeys}. On YARN a task
 * takes its node's pool, server and ZooKeeper from the {@link
 * dev.levee.sponge.server.SpongeNodeDescriptor} the aux service publishes; without one (the
 * standalone daemon) the node's server is found with {@link
 * dev.levee.sponge.server.SpongeServerConfig#PORT}, {@link
 * dev.levee.sponge.server.SpongeServerConfig#ADVERTISED_HOST} and, for remote memory, {@link
 * dev.levee.sponge.server.SpongeServerConfig#ZK_QUORUM}: the same values the NodeManagers' aux
 * service reads, so one set of keys serves both sides.
 */
public final class SpongeShuffleKeys {
  private SpongeShuffleKeys() {}

  /**
   * The value of {@code mapreduce.job.reduce.shuffle.consumer.plugin.class} that switches
   * SpongeFiles on.
   */
  public static final String PLUGIN_CLASS = SpongeShuffle.class.getName();

  /**
   * Use SpongeFiles only when the node's sponge server answers. The server is what reclaims the
   * chunks of a task that dies, so running without it leaks memory on crashes; turn this off only
   * for tools and tests that own the pool. Default {@value #REQUIRE_SERVER_DEFAULT}.
   */
  public static final String REQUIRE_SERVER = "levee.sponge.shuffle.require-server";

  public static final boolean REQUIRE_SERVER_DEFAULT = true;

  /**
   * What a reduce does when its node has no usable sponge: {@value #FALLBACK_STOCK} spills to local
   * disk as stock Hadoop does, says so once in its log and counts {@code shuffle.fallbacks};
   * {@value #FALLBACK_FAIL} fails the attempt with the reason, for clusters that must not run
   * without SpongeFiles unnoticed (and for running Hadoop's own tests with the plugin on). Default
   * {@value #FALLBACK_DEFAULT}.
   */
  public static final String FALLBACK = "levee.sponge.shuffle.fallback";

  public static final String FALLBACK_STOCK = "stock";
  public static final String FALLBACK_FAIL = "fail";
  public static final String FALLBACK_DEFAULT = FALLBACK_STOCK;

  /**
   * Share of the reduce task JVM's direct memory (-XX:MaxDirectMemorySize, by default -Xmx) the
   * final merge may fill with chunk buffers for runs outside the local sponge. More buffered runs
   * than fit are first merged in intermediate rounds. A fraction in (0, 1]; default {@value
   * #MERGE_DIRECT_MEMORY_FRACTION_DEFAULT}.
   */
  public static final String MERGE_DIRECT_MEMORY_FRACTION =
      "levee.sponge.shuffle.merge.direct-memory.fraction";

  public static final float MERGE_DIRECT_MEMORY_FRACTION_DEFAULT = 0.5f;

  /**
   * Logged at INFO by the reduce task once the copy is over and every background spill has
   * finished, right before the final merge: the point where stock logs "finalMerge called". Tools
   * time the merge and the reduce from it.
   */
  public static final String FINAL_MERGE_LOG_MARKER = "final merge begins with";

  /** Name of the task counter group the plugin publishes into. */
  public static final String COUNTER_GROUP = "Levee SpongeFiles";
}
