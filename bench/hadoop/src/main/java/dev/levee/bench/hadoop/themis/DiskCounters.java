package dev.levee.bench.hadoop.themis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The block devices' totals from /proc/diskstats: what reached the disks, which counters cannot
 * show (logical I/O may stay in the page cache). Whole disks only (vda, sda, nvme0n1), so a
 * partition is not counted twice.
 */
record DiskCounters(long bytesRead, long bytesWritten, long reads, long writes) {
  private static final Pattern WHOLE_DISK =
      Pattern.compile("(?:[shv]d[a-z]+|xvd[a-z]+|nvme\\d+n\\d+)");
  private static final Path DISKSTATS = Path.of("/proc/diskstats");

  static DiskCounters now() {
    if (!Files.isReadable(DISKSTATS)) {
      return new DiskCounters(-1, -1, -1, -1);
    }
    long rBytes = 0;
    long wBytes = 0;
    long r = 0;
    long w = 0;
    try {
      for (String line : Files.readAllLines(DISKSTATS)) {
        String[] f = line.trim().split("\\s+");
        if (f.length < 10 || !WHOLE_DISK.matcher(f[2]).matches()) {
          continue;
        }
        r += Long.parseLong(f[3]);
        rBytes += Long.parseLong(f[5]) * 512;
        w += Long.parseLong(f[7]);
        wBytes += Long.parseLong(f[9]) * 512;
      }
    } catch (IOException | NumberFormatException e) {
      return new DiskCounters(-1, -1, -1, -1);
    }
    return new DiskCounters(rBytes, wBytes, r, w);
  }

  boolean known() {
    return bytesRead >= 0;
  }

  /** These counters less {@code bytes} read by something other than the job (a count unknown). */
  DiskCounters lessRead(long bytes) {
    return new DiskCounters(bytesRead - bytes, bytesWritten, reads, writes);
  }

  DiskCounters minus(DiskCounters before) {
    return new DiskCounters(
        bytesRead - before.bytesRead,
        bytesWritten - before.bytesWritten,
        reads - before.reads,
        writes - before.writes);
  }
}
