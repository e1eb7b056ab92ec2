package dev.levee.sponge.hadoop;

import com.sun.management.HotSpotDiagnosticMXBean;
import dev.levee.sponge.config.SpongeConf;
import java.lang.management.ManagementFactory;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.ToLongFunction;

/**
 * The direct memory a merge of SpongeFile runs may hold. A reader needs no buffer for chunks in the
 * local sponge (they are copied out of the shared mapping) but one chunk-sized direct buffer for
 * any other chunk, two with prefetch. A one-round merge opens every run at once, and a small
 * reducer JVM may not have that much direct memory: HotSpot caps it at -Xmx unless
 * -XX:MaxDirectMemorySize says otherwise, and a JVM short of it runs full GCs back to back before
 * it fails. The paper's reducers had gigabytes and never met the limit; a 24 MB reducer with 24
 * runs partly on remote sponges does. So the final merge gives up prefetch before it gives up its
 * single round, and only when even one buffer per run does not fit are the smallest buffered runs
 * merged first, just enough of them to fit (Hadoop's own first-pass rule): the rounds memory
 * requires, never the seek-driven ones.
 */
final class MergeBufferBudget {
  private final int chunkSize;
  private final int writerBuffers;
  private final long budgetBytes;

  MergeBufferBudget(int chunkSize, int maxInFlightWrites, long budgetBytes) {
    if (chunkSize <= 0 || maxInFlightWrites < 0 || budgetBytes < 0) {
      throw new IllegalArgumentException(
          "chunk size "
              + chunkSize
              + ", in-flight writes "
              + maxInFlightWrites
              + ", budget "
              + budgetBytes
              + " bytes: none may be negative, the chunk size must be positive");
    }
    this.chunkSize = chunkSize;
    this.writerBuffers = 1 + maxInFlightWrites;
    this.budgetBytes = budgetBytes;
  }

  /**
   * The budget as a fraction ({@link SpongeConf#SHUFFLE_MERGE_DIRECT_MEMORY_FRACTION}) of this
   * JVM's direct memory.
   */
  static long bytesFromFraction(double fraction) {
    if (!(fraction > 0 && fraction <= 1)) {
      throw new IllegalArgumentException(
          SpongeConf.SHUFFLE_MERGE_DIRECT_MEMORY_FRACTION.name()
              + "="
              + fraction
              + ": must be a fraction in (0, 1] of the task JVM's direct memory");
    }
    return (long) (fraction * maxDirectMemory());
  }

  long budgetBytes() {
    return budgetBytes;
  }

  /**
   * Whether readers of all these runs may prefetch (two chunk buffers each for runs outside the
   * local sponge).
   */
  <R> boolean prefetchFits(List<R> runs, ToLongFunction<R> nonLocalBytes) {
    return 2 * buffered(runs, nonLocalBytes) <= buffers();
  }

  /**
   * The smallest buffered runs to merge into one before the final merge, or empty when one buffer
   * per run fits (or a single buffered run is left). The batch is just large enough for the rest to
   * fit, and never wider than one merge can read next to its writer's buffers; each call shrinks
   * the run count, so repeating it after each merge ends.
   */
  <R> Optional<List<R>> nextIntermediateMerge(
      List<R> runs, ToLongFunction<R> nonLocalBytes, ToLongFunction<R> size) {
    List<R> buffered =
        runs.stream()
            .filter(r -> nonLocalBytes.applyAsLong(r) > 0)
            .sorted(Comparator.comparingLong(size))
            .toList();
    if (buffered.size() <= Math.max(1, buffers())) {
      return Optional.empty();
    }
    long widest = Math.max(2, buffers() - writerBuffers);
    long enough = buffered.size() - buffers() + 1;
    int width = (int) Math.max(2, Math.min(widest, enough));
    return Optional.of(buffered.subList(0, width));
  }

  private long buffers() {
    return budgetBytes / chunkSize;
  }

  private static <R> long buffered(List<R> runs, ToLongFunction<R> nonLocalBytes) {
    return runs.stream().filter(r -> nonLocalBytes.applyAsLong(r) > 0).count();
  }

  static long maxDirectMemory() {
    try {
      HotSpotDiagnosticMXBean hotSpot =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      long configured = Long.parseLong(hotSpot.getVMOption("MaxDirectMemorySize").getValue());
      if (configured > 0) {
        return configured;
      }
    } catch (RuntimeException e) {
      // Not HotSpot, or the option is unknown: HotSpot's default below is the safe guess.
    }
    return Runtime.getRuntime().maxMemory();
  }
}
