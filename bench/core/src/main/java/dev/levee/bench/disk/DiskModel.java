package dev.levee.bench.disk;

import dev.levee.bench.cli.BadArgumentException;
import java.util.Locale;

/**
 * The spinning disk the emulator plays: a sequential rate, the time of one seek, and the page
 * cache's room for dirty data in front of it. The defaults are a 7200-rpm disk of the papers' era
 * (SpongeFiles, SIGMOD 2014, and ThemisMR, SoCC 2012, both ran on such disks): about 120 MB/s
 * streaming and 8 ms to move the head and wait half a turn; 128 MB of write-back, what a
 * memory-tight node's kernel keeps dirty once its task JVMs hold the rest (0: write-through).
 */
public record DiskModel(double bandwidthMb, double seekMs, int writeCacheMb) {
  public static final DiskModel SEVEN_THOUSAND_RPM = new DiskModel(120, 8, 128);

  public DiskModel {
    if (!(bandwidthMb >= 1 && bandwidthMb <= 100_000)) {
      throw new BadArgumentException(
          "emulated disk bandwidth: " + bandwidthMb + " MB/s is outside 1 to 100000");
    }
    if (!(seekMs >= 0 && seekMs <= 1000)) {
      throw new BadArgumentException("emulated disk seek: " + seekMs + " ms is outside 0 to 1000");
    }
    if (writeCacheMb < 0 || writeCacheMb > 65_536) {
      throw new BadArgumentException(
          "emulated disk write cache: " + writeCacheMb + " MB is outside 0 to 65536");
    }
  }

  /** How results name it, e.g. "emulated 120 MB/s 8.0 ms seek 128 MB write cache". */
  public String label() {
    return String.format(
        Locale.ROOT,
        "emulated %.0f MB/s %.1f ms seek %s",
        bandwidthMb,
        seekMs,
        writeCacheMb == 0 ? "write-through" : writeCacheMb + " MB write cache");
  }

  /** What the model charges for {@code bytes} in {@code seeks} seeks, in nanoseconds. */
  public long chargeNanos(long bytes, long seeks) {
    return Math.round(bytes / (bandwidthMb * 1e6) * 1e9) + Math.round(seeks * seekMs * 1e6);
  }
}
