package dev.levee.sponge;

import java.util.Locale;

/**
 * The names of the counters SpongeFiles publish, in the task counter group {@value #GROUP}: the one
 * definition the plugins, the tests and the benchmarks share, so a renamed counter cannot silently
 * read as 0 somewhere else.
 */
public final class SpongeCounters {
  private SpongeCounters() {}

  /** The task counter group, as Hadoop shows it next to its own. */
  public static final String GROUP = "Levee SpongeFiles";

  /**
   * Counted for each {@link Tier}, named {@code <tier>.<counter>}, e.g. {@code
   * local_memory.bytes_written}.
   */
  public enum PerTier {
    BYTES_WRITTEN,
    CHUNKS_WRITTEN,
    BYTES_READ,
    CHUNKS_READ,
    CHUNKS_FREED,
    /** Chunks this tier was asked to place, whether it took them or not. */
    PLACEMENT_ATTEMPTS,
    PLACEMENT_NANOS_TOTAL,
    PLACEMENT_NANOS_MAX,
    /** Chunks this tier refused (no room), so a farther tier took them. */
    FALLBACKS,
    ERRORS;

    /** The counter's name for {@code tier}. */
    public String of(Tier tier) {
      return tier.name().toLowerCase(Locale.ROOT) + "." + name().toLowerCase(Locale.ROOT);
    }
  }

  /** Counters of a whole task. */
  public enum Counter {
    FILES_CREATED("files_created"),
    FILES_DELETED("files_deleted"),
    /** Remote servers that said "full" although the tracker's list said they had room. */
    REMOTE_STALE_SERVERS("remote.stale_servers"),
    REMOTE_SERVER_ERRORS("remote.server_errors"),
    /** Remote chunk reads served by another copy because the first copy's server failed. */
    REMOTE_REPLICA_FAILOVERS("remote.replica_failovers"),
    /**
     * Chunks that went to a farther tier because no second server could hold a copy (with {@code
     * levee.sponge.remote.replicas} above 1).
     */
    REMOTE_REPLICA_SHORTFALLS("remote.replica_shortfalls"),
    /** 1 when the task gave up remote memory because the tracker could not be reached. */
    REMOTE_TRACKER_UNREACHABLE("remote.tracker_unreachable"),
    /** 1 when the task ran the stock spill path instead (no usable sponge on its node). */
    SHUFFLE_FALLBACKS("shuffle.fallbacks"),
    /**
     * Time the reduce task spent at its start finding and attaching its node's sponge: the node
     * descriptor, the server probe and secret exchange, the tracker's ZooKeeper connection and the
     * pool mapping. Paid whether or not the task spills.
     */
    SHUFFLE_ATTACH_NANOS("shuffle.attach_nanos"),
    /**
     * Time closing the reduce task's SpongeFiles took after the reducer had consumed the merge
     * (background frees, connections, the tracker's session). Paid whether or not the task spills.
     */
    SHUFFLE_CLOSE_NANOS("shuffle.close_nanos"),
    /** Map outputs too big for the shuffle buffer, fetched straight into a SpongeFile. */
    SHUFFLE_MAP_OUTPUTS_TO_SPONGE("shuffle.map_outputs_to_sponge"),
    /** Merges of in-memory map outputs into a SpongeFile run, to free the shuffle buffer. */
    SHUFFLE_MEMORY_SPILLS("shuffle.memory_spills"),
    /** Merge passes over spilled data: 1 when the final merge read every run at once. */
    MERGE_ROUNDS("merge.rounds"),
    MERGE_FINAL_RUNS("merge.final_runs"),
    /**
     * 1 when the final merge read its SpongeFile runs with prefetch (0, so absent, when their read
     * buffers left no room for it, prefetch is off or no run was spilled).
     */
    MERGE_FINAL_PREFETCH("merge.final_prefetch"),
    /** Merges of runs before the final one, because their read buffers would not fit. */
    MERGE_INTERMEDIATE_ROUNDS("merge.intermediate_rounds"),
    // --- Map-side spills (SpongeMapOutputCollector).
    /** 1 when a map ran Hadoop's own output buffer instead (no usable sponge on its node). */
    MAP_FALLBACKS("map.fallbacks"),
    /** Sorted runs a map spilled into SpongeFiles instead of local spill files. */
    MAP_SPILLS("map.spills"),
    /**
     * Bytes of those runs: what stock would have written to local disk as spill files and read back
     * in its merge (more, when it merges in several rounds).
     */
    MAP_SPILL_BYTES("map.spill_bytes"),
    /** Passes over spilled runs: 1 when file.out was merged from every run at once. */
    MAP_MERGE_ROUNDS("map.merge_rounds"),
    /** Runs the merge into file.out read (spills, or the outputs of intermediate rounds). */
    MAP_MERGE_FINAL_RUNS("map.merge_final_runs"),
    /** Records bigger than the whole sort buffer, each spilled as a run of its own. */
    MAP_OVERSIZED_RECORDS("map.oversized_records"),
    // --- Where SpongeFiles block (nanoseconds, summed over threads).
    /**
     * Time writers (the shuffle's fetchers, spillers) waited for an in-flight permit: a chunk
     * hand-off waiting for an earlier chunk to be placed, and a close waiting for the last ones.
     */
    WRITE_PERMIT_WAIT_NANOS("write.permit_wait_nanos"),
    /**
     * Time writers spent getting each chunk's buffer: a local sponge chunk (refusals included) or a
     * staging buffer for the other tiers (direct memory, which may wait for a GC).
     */
    WRITE_ALLOCATION_NANOS("write.allocation_nanos"),
    /**
     * Time readers waited for a chunk outside the local sponge: a prefetch not yet done, or a fetch
     * made on the spot.
     */
    READ_WAIT_NANOS("read.wait_nanos"),
    /**
     * Time spent freeing deleted files' chunks, in whichever thread freed them (a merge's drained
     * runs are freed in the background).
     */
    FREE_NANOS("free.nanos"),
    /**
     * Time closing the file system waited for background frees still running: the part of freeing a
     * task waits for.
     */
    FREE_CLOSE_WAIT_NANOS("free.close_wait_nanos"),
    /**
     * Frees of a file's chunks in one tier that failed (logged; the tier's {@code errors} count
     * them too). The chunks' servers reclaim them once the task's owner lease lapses.
     */
    FREE_FAILURES("free.failures"),
    /**
     * Files whose background frees had not finished when closing gave up waiting ({@code
     * levee.sponge.free.close-wait-ms}); left to the servers' garbage collector.
     */
    FREE_ABANDONED("free.abandoned");

    private final String counterName;

    Counter(String counterName) {
      this.counterName = counterName;
    }

    public String counterName() {
      return counterName;
    }
  }

  // --- Pig bags (dev.levee.sponge.pig): same group, names under "pig.".

  /**
   * Counters of the Pig bags that spill to SpongeFiles. Bytes and chunks per tier are named {@code
   * pig.<tier>.<counter>} ({@link #perTier}), apart from the reduce-side shuffle's own.
   */
  public enum PigBag {
    /**
     * Bag spills written into SpongeFiles (one file per spill); also counted per kind of bag as
     * {@code pig.bag_spills.default}, {@code .sorted} and {@code .distinct} ({@link #spillsOf}).
     */
    SPILLS("pig.bag_spills"),
    /**
     * Merges of a sorted or distinct bag's oldest spills into one, when more spills than one merge
     * reads at once.
     */
    MERGES("pig.bag_merges"),
    /** Tuples those spills wrote. */
    TUPLES_SPILLED("pig.tuples_spilled"),
    /** Bag spills written to local temporary files as stock Pig does (no usable sponge). */
    LOCAL_FILE_SPILLS("pig.local_file_spills"),
    /** 1 when the task's bags had no usable sponge and spilled to local files instead. */
    FALLBACKS("pig.fallbacks");

    private final String counterName;

    PigBag(String counterName) {
      this.counterName = counterName;
    }

    public String counterName() {
      return counterName;
    }

    /** Spills of one kind of bag: {@code default}, {@code sorted} or {@code distinct}. */
    public static String spillsOf(String bagKind) {
      return SPILLS.counterName + "." + bagKind;
    }

    /** The name of a per-tier figure of bag spills, e.g. {@code pig.local_memory.bytes_written}. */
    public static String perTier(PerTier counter, Tier tier) {
      return "pig." + counter.of(tier);
    }
  }
}
