package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.hadoop.median.load.DiskReaders;
import dev.levee.bench.hadoop.median.load.MemInfo;
import dev.levee.bench.hadoop.median.load.PageCacheSqueeze;
import dev.levee.bench.hadoop.median.load.SqueezePlan;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A condition in force: background disk readers and/or the page-cache squeeze, started before the
 * condition's jobs and stopped after them (in {@link #close}, whatever happened). Measures itself
 * per job, so every result line says how much contention or pressure its job really met.
 */
final class ConditionLoad implements AutoCloseable {
  /** How long the readers run alone to give the throughput the job's I/O then competes with. */
  static final long ALONE_MILLIS = 3_000;

  private final DiskReaders readers;
  private final PageCacheSqueeze squeeze;
  private final double readersAloneMbPerS;
  private DiskReaders.Snapshot jobStart;

  private ConditionLoad(DiskReaders readers, PageCacheSqueeze squeeze, double readersAloneMbPerS) {
    this.readers = readers;
    this.squeeze = squeeze;
    this.readersAloneMbPerS = readersAloneMbPerS;
  }

  /**
   * Starts what {@code condition} needs: readers on {@code spillDisk} (the file system of the
   * NodeManagers' local dirs) and the squeeze in {@code /dev/shm}.
   */
  static ConditionLoad start(Condition condition, MedianSettings s, Path spillDisk, PrintStream err)
      throws IOException, InterruptedException {
    DiskReaders readers = null;
    PageCacheSqueeze squeeze = null;
    try {
      double alone = Double.NaN;
      if (condition.diskReaders) {
        readers =
            DiskReaders.start(
                spillDisk.resolve("background-readers"), s.diskReaders(), s.diskReaderFileBytes());
        DiskReaders.Snapshot before = readers.snapshot();
        Thread.sleep(ALONE_MILLIS);
        readers.checkAlive();
        alone = readers.snapshot().mbPerSecondSince(before);
        err.printf(
            "sponge-median: %d disk readers on %s read %.0f MB/s alone%s%n",
            s.diskReaders(),
            spillDisk,
            alone,
            readers.direct()
                ? " (O_DIRECT)"
                : " (no O_DIRECT here: reads may come from the page cache)");
      }
      if (condition.pageCacheSqueeze) {
        MemInfo before = MemInfo.read();
        squeeze =
            PageCacheSqueeze.start(
                Path.of("/dev/shm"),
                SqueezePlan.withDefaultFloor(s.squeezeLeaveBytes(), s.squeezeMaxBytes()),
                err);
        MemInfo after = MemInfo.read();
        err.printf(
            "sponge-median: pinned %d MiB in /dev/shm; MemAvailable %d -> %d MiB (total %d MiB)%n",
            squeeze.pinnedBytes() >> 20,
            before.availableBytes() >> 20,
            after.availableBytes() >> 20,
            after.totalBytes() >> 20);
      }
      return new ConditionLoad(readers, squeeze, alone);
    } catch (IOException | InterruptedException | RuntimeException e) {
      closeAll(readers, squeeze, e);
      throw e;
    }
  }

  /** Fails if the contention died: a contended run without contention would be a lie. */
  void check() throws IOException {
    if (readers != null) {
      readers.checkAlive();
    }
  }

  void beginJob() {
    if (readers != null) {
      jobStart = readers.snapshot();
    }
    if (squeeze != null) {
      squeeze.resetWindow();
    }
  }

  /** What the condition amounted to since {@link #beginJob}, as metrics. */
  Map<String, Double> endJob() {
    Map<String, Double> m = new LinkedHashMap<>();
    if (readers != null) {
      m.put("disk_readers_alone_mb_per_s", readersAloneMbPerS);
      m.put("disk_readers_during_job_mb_per_s", readers.snapshot().mbPerSecondSince(jobStart));
      m.put("disk_readers_o_direct", readers.direct() ? 1.0 : 0.0);
    }
    if (squeeze != null) {
      m.put("squeeze_pinned_min_bytes", (double) squeeze.windowMinPinnedBytes());
      m.put("squeeze_released_bytes", (double) squeeze.releasedBytes());
      long minAvailable = squeeze.windowMinAvailableBytes();
      if (minAvailable >= 0) {
        m.put("mem_available_min_bytes", (double) minAvailable);
      }
    }
    return m;
  }

  @Override
  public void close() throws IOException {
    closeAll(readers, squeeze, null);
  }

  private static void closeAll(DiskReaders readers, PageCacheSqueeze squeeze, Throwable primary)
      throws IOException {
    // The squeeze first: pinned memory is what hurts the rest of the machine most.
    if (squeeze != null) {
      squeeze.close();
    }
    if (readers != null) {
      try {
        readers.close();
      } catch (IOException e) {
        if (primary == null) {
          throw e;
        }
        primary.addSuppressed(e);
      }
    }
  }
}
