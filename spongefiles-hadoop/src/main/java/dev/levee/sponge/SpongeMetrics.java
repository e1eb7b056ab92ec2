package dev.levee.sponge;

import dev.levee.sponge.SpongeCounters.Counter;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one {@link SpongeFileSystem}: bytes and chunks per tier, placement latency,
 * fallbacks, and the time its callers block writing, reading and freeing. Thread-safe and cheap to
 * update from writer, prefetcher and task threads. Framework-free: the Hadoop integration copies
 * {@link #asMap()} into task counters, the server into JMX.
 *
 * <p>Placement latency is the time to get one chunk stored in a tier, as the file sees it:
 * allocation for the local sponge; allocate + transfer for remote memory (one round trip carries
 * both); the write for disk and DFS. Failed and refused attempts count too, since they are part of
 * what a chunk waited for.
 */
public final class SpongeMetrics {
  private final Map<Tier, PerTier> tiers = new EnumMap<>(Tier.class);
  private final LongAdder filesCreated = new LongAdder();
  private final LongAdder filesDeleted = new LongAdder();
  private final LongAdder staleRemoteServers = new LongAdder();
  private final LongAdder remoteServerErrors = new LongAdder();
  private final LongAdder replicaFailovers = new LongAdder();
  private final LongAdder replicaShortfalls = new LongAdder();
  private final LongAdder writePermitWaitNanos = new LongAdder();
  private final LongAdder writeAllocationNanos = new LongAdder();
  private final LongAdder readWaitNanos = new LongAdder();
  private final LongAdder freeNanos = new LongAdder();
  private final LongAdder freeCloseWaitNanos = new LongAdder();
  private final LongAdder freeFailures = new LongAdder();
  private final LongAdder freesAbandoned = new LongAdder();

  public SpongeMetrics() {
    for (Tier t : Tier.values()) {
      tiers.put(t, new PerTier());
    }
  }

  private static final class PerTier {
    final LongAdder bytesWritten = new LongAdder();
    final LongAdder chunksWritten = new LongAdder();
    final LongAdder bytesRead = new LongAdder();
    final LongAdder chunksRead = new LongAdder();
    final LongAdder chunksFreed = new LongAdder();
    final LongAdder placementAttempts = new LongAdder();
    final LongAdder placementNanos = new LongAdder();
    final LongAccumulator placementNanosMax = new LongAccumulator(Math::max, 0);
    final LongAdder fallbacks = new LongAdder();
    final LongAdder errors = new LongAdder();
  }

  // --- recording (called by the file and its tiers) ---

  public void placed(Tier tier, int bytes, long nanos) {
    PerTier t = tiers.get(tier);
    t.bytesWritten.add(bytes);
    t.chunksWritten.increment();
    attempt(t, nanos);
  }

  /** The tier had no room (or failed) for a chunk, which moved on to the next tier. */
  public void fellBack(Tier tier, long nanos, boolean error) {
    PerTier t = tiers.get(tier);
    t.fallbacks.increment();
    if (error) {
      t.errors.increment();
    }
    attempt(t, nanos);
  }

  public void read(Tier tier, int bytes) {
    PerTier t = tiers.get(tier);
    t.bytesRead.add(bytes);
    t.chunksRead.increment();
  }

  public void freed(Tier tier, int chunks) {
    tiers.get(tier).chunksFreed.add(chunks);
  }

  public void error(Tier tier) {
    tiers.get(tier).errors.increment();
  }

  public void staleRemoteServer() {
    staleRemoteServers.increment();
  }

  /**
   * A remote server failed a store (unreachable or erroring); the chunk moved on to the next
   * server.
   */
  public void remoteServerError() {
    remoteServerErrors.increment();
  }

  /** A remote read was served by another copy after the first copy's server failed. */
  public void replicaFailover() {
    replicaFailovers.increment();
  }

  /** A chunk moved on to a farther tier because no second server could hold its copy. */
  public void replicaShortfall() {
    replicaShortfalls.increment();
  }

  public long replicaFailovers() {
    return replicaFailovers.sum();
  }

  public long replicaShortfalls() {
    return replicaShortfalls.sum();
  }

  /** A writer waited {@code nanos} for an in-flight permit. */
  public void writePermitWait(long nanos) {
    writePermitWaitNanos.add(nanos);
  }

  /** A writer spent {@code nanos} getting a chunk's buffer. */
  public void writeAllocation(long nanos) {
    writeAllocationNanos.add(nanos);
  }

  /** A reader waited {@code nanos} for a chunk outside the local sponge. */
  public void readWait(long nanos) {
    readWaitNanos.add(nanos);
  }

  /** Freeing a deleted file's chunks took {@code nanos}. */
  public void freeTime(long nanos) {
    freeNanos.add(nanos);
  }

  /** Freeing one tier's chunks of a file failed. */
  public void freeFailed() {
    freeFailures.increment();
  }

  /** Closing waited {@code nanos} for background frees, and gave up on {@code abandoned} files. */
  public void closeWaitedForFrees(long nanos, int abandoned) {
    freeCloseWaitNanos.add(nanos);
    freesAbandoned.add(abandoned);
  }

  public long writePermitWaitNanos() {
    return writePermitWaitNanos.sum();
  }

  public long writeAllocationNanos() {
    return writeAllocationNanos.sum();
  }

  public long readWaitNanos() {
    return readWaitNanos.sum();
  }

  public long freeNanos() {
    return freeNanos.sum();
  }

  public long freeCloseWaitNanos() {
    return freeCloseWaitNanos.sum();
  }

  public long freeFailures() {
    return freeFailures.sum();
  }

  public long freesAbandoned() {
    return freesAbandoned.sum();
  }

  public void fileCreated() {
    filesCreated.increment();
  }

  public void fileDeleted() {
    filesDeleted.increment();
  }

  private static void attempt(PerTier t, long nanos) {
    t.placementAttempts.increment();
    t.placementNanos.add(nanos);
    t.placementNanosMax.accumulate(nanos);
  }

  // --- reading ---

  public long bytesWritten(Tier tier) {
    return tiers.get(tier).bytesWritten.sum();
  }

  public long chunksWritten(Tier tier) {
    return tiers.get(tier).chunksWritten.sum();
  }

  public long bytesRead(Tier tier) {
    return tiers.get(tier).bytesRead.sum();
  }

  public long chunksRead(Tier tier) {
    return tiers.get(tier).chunksRead.sum();
  }

  public long chunksFreed(Tier tier) {
    return tiers.get(tier).chunksFreed.sum();
  }

  /** Chunks that tried this tier and moved on to the next one. */
  public long fallbacks(Tier tier) {
    return tiers.get(tier).fallbacks.sum();
  }

  public long errors(Tier tier) {
    return tiers.get(tier).errors.sum();
  }

  public long placementAttempts(Tier tier) {
    return tiers.get(tier).placementAttempts.sum();
  }

  public long placementNanosTotal(Tier tier) {
    return tiers.get(tier).placementNanos.sum();
  }

  public long placementNanosMax(Tier tier) {
    return tiers.get(tier).placementNanosMax.get();
  }

  /** Remote servers that the tracker listed as free but that had no chunk (or quota) for us. */
  public long staleRemoteServers() {
    return staleRemoteServers.sum();
  }

  public long remoteServerErrors() {
    return remoteServerErrors.sum();
  }

  public long filesCreated() {
    return filesCreated.sum();
  }

  public long filesDeleted() {
    return filesDeleted.sum();
  }

  /** The current value of per-tier counter {@code c} for {@code tier}. */
  public long value(SpongeCounters.PerTier c, Tier tier) {
    return switch (c) {
      case BYTES_WRITTEN -> bytesWritten(tier);
      case CHUNKS_WRITTEN -> chunksWritten(tier);
      case BYTES_READ -> bytesRead(tier);
      case CHUNKS_READ -> chunksRead(tier);
      case CHUNKS_FREED -> chunksFreed(tier);
      case PLACEMENT_ATTEMPTS -> placementAttempts(tier);
      case PLACEMENT_NANOS_TOTAL -> placementNanosTotal(tier);
      case PLACEMENT_NANOS_MAX -> placementNanosMax(tier);
      case FALLBACKS -> fallbacks(tier);
      case ERRORS -> errors(tier);
    };
  }

  /**
   * A point-in-time copy with stable names: {@code <tier>.<counter>} in lower case (for example
   * {@code local_memory.bytes_written}, {@code remote_memory.placement_nanos_max}) plus {@code
   * files_created}, {@code files_deleted}, the {@code remote.*} figures and where the files blocked
   * ({@code write.*}, {@code read.wait_nanos}, {@code free.*}). Iteration order is stable.
   */
  public Map<String, Long> asMap() {
    Map<String, Long> m = new LinkedHashMap<>();
    for (Tier tier : Tier.values()) {
      for (SpongeCounters.PerTier c : SpongeCounters.PerTier.values()) {
        m.put(c.of(tier), value(c, tier));
      }
    }
    m.put(Counter.FILES_CREATED.counterName(), filesCreated());
    m.put(Counter.FILES_DELETED.counterName(), filesDeleted());
    m.put(Counter.REMOTE_STALE_SERVERS.counterName(), staleRemoteServers());
    m.put(Counter.REMOTE_SERVER_ERRORS.counterName(), remoteServerErrors());
    m.put(Counter.REMOTE_REPLICA_FAILOVERS.counterName(), replicaFailovers());
    m.put(Counter.REMOTE_REPLICA_SHORTFALLS.counterName(), replicaShortfalls());
    m.put(Counter.WRITE_PERMIT_WAIT_NANOS.counterName(), writePermitWaitNanos());
    m.put(Counter.WRITE_ALLOCATION_NANOS.counterName(), writeAllocationNanos());
    m.put(Counter.READ_WAIT_NANOS.counterName(), readWaitNanos());
    m.put(Counter.FREE_NANOS.counterName(), freeNanos());
    m.put(Counter.FREE_CLOSE_WAIT_NANOS.counterName(), freeCloseWaitNanos());
    m.put(Counter.FREE_FAILURES.counterName(), freeFailures());
    m.put(Counter.FREE_ABANDONED.counterName(), freesAbandoned());
    return m;
  }

  @Override
  public String toString() {
    return asMap().toString();
  }
}
