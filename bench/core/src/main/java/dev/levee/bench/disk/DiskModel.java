package dev.levee.bench.disk;

import dev.levee.bench.cli.BadArgumentException;
import java.util.Locale;

/**
 * The spinning disk the emulator plays: a sequential rate and the time of one seek. The defaults
 * are a 7200-rpm disk of the papers' era (SpongeFiles, SIGMOD 2014, and ThemisMR, SoCC 2012, both
 * ran on such disks): about 120 MB/s streaming and 8 ms to move the head and wait half a turn.
 */
public record DiskModel(double bandwidthMb, double seekMs) {
  public static final DiskModel SEVEN_THOUSAND_RPM = new DiskModel(120, 8);

  public DiskModel {
    if (!(bandwidthMb >= 1 && bandwidthMb <= 100_000)) {
      throw new BadArgumentException(
          "emulated disk bandwidth: " + bandwidthMb + " MB/s is outside 1 to 100000");
    }
    if (!(seekMs >= 0 && seekMs <= 1000)) {
      throw new BadArgumentException("emulated disk seek: " + seekMs + " ms is outside 0 to 1000");
    }
  }

  /** How results name it, e.g. "emulated 120 MB/s 8 ms seek". */
  public String label() {
    return String.format(Locale.ROOT, "emulated %.0f MB/s %.1f ms seek", bandwidthMb, seekMs);
  }

  /** What the model charges for {@code bytes} in {@code seeks} seeks, in nanoseconds. */
  public long chargeNanos(long bytes, long seeks) {
    return Math.round(bytes / (bandwidthMb * 1e6) * 1e9) + Math.round(seeks * seekMs * 1e6);
  }
}
