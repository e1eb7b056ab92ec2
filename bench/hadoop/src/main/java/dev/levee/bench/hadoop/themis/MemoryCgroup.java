package dev.levee.bench.hadoop.themis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The cgroup-v1 memory cgroup this JVM runs in, when it has a limit (bench/memory-cgroup.sh puts
 * the bench in one): the mini cluster's task JVMs are its children and inherit it, and the page
 * cache of every file they and the cluster write is charged to it, so a limit below the data size
 * makes data read back after it was written come from the disk. The suite records the limit with
 * every result and the cgroup's peak use during each job.
 *
 * @param dir the cgroup's directory under /sys/fs/cgroup/memory
 * @param limitBytes its memory.limit_in_bytes
 */
record MemoryCgroup(Path dir, long limitBytes) {
  private static final Path ROOT = Path.of("/sys/fs/cgroup/memory");

  /** The kernel's "no limit" is a huge page-aligned number; anything above this is unlimited. */
  private static final long UNLIMITED = 1L << 50;

  /**
   * This process's memory cgroup if it has a limit of its own, else null: a limit set only on a
   * parent belongs to whatever runs this process, and the suite leaves that cgroup alone.
   */
  static MemoryCgroup ofThisProcess() {
    try {
      Path dir = null;
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
        String[] f = line.split(":", 3);
        if (f.length == 3 && List.of(f[1].split(",")).contains("memory")) {
          dir = ROOT.resolve(f[2].substring(1));
        }
      }
      if (dir == null || !Files.isDirectory(dir)) {
        return null;
      }
      long limit = Long.parseLong(Files.readString(dir.resolve("memory.limit_in_bytes")).trim());
      return limit >= UNLIMITED ? null : new MemoryCgroup(dir, limit);
    } catch (IOException | NumberFormatException e) {
      return null;
    }
  }

  /** Starts a new peak: the kernel keeps the highest use since the last reset. */
  void resetPeak() {
    try {
      Files.writeString(dir.resolve("memory.max_usage_in_bytes"), "0");
    } catch (IOException e) {
      // A read-only cgroup file system: the peak then covers the whole run, which the result says.
    }
  }

  /** The highest memory use (processes plus page cache) since the last reset, or -1. */
  long peakBytes() {
    return read("memory.max_usage_in_bytes");
  }

  /** Page cache charged to the cgroup now (memory.stat total_cache), or -1. */
  long cacheBytes() {
    return stat("total_cache");
  }

  /** Anonymous memory of the cgroup's processes now (memory.stat total_rss), or -1. */
  long rssBytes() {
    return stat("total_rss");
  }

  private long read(String file) {
    try {
      return Long.parseLong(Files.readString(dir.resolve(file)).trim());
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
  }

  private long stat(String key) {
    try {
      for (String line : Files.readAllLines(dir.resolve("memory.stat"))) {
        String[] f = line.split(" ");
        if (f.length == 2 && f[0].equals(key)) {
          return Long.parseLong(f[1]);
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
