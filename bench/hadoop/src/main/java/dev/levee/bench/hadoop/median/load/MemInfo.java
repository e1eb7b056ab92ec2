package dev.levee.bench.hadoop.median.load;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The lines of {@code /proc/meminfo} that size the page-cache squeeze. {@code MemAvailable} is the
 * kernel's own estimate of what can be allocated without swapping (free pages plus reclaimable
 * cache), which is exactly the room the page cache competes for.
 */
public record MemInfo(long totalBytes, long availableBytes, long cachedBytes, long dirtyBytes) {
  private static final Path PROC_MEMINFO = Path.of("/proc/meminfo");

  public static MemInfo read() throws IOException {
    return parse(Files.readString(PROC_MEMINFO, StandardCharsets.US_ASCII));
  }

  /**
   * Parses the {@code Name: 123 kB} format; MemTotal and MemAvailable are required (Linux 3.14+).
   */
  public static MemInfo parse(String text) {
    long total = -1;
    long available = -1;
    long cached = 0;
    long dirty = 0;
    for (String line : text.split("\n")) {
      int colon = line.indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = line.substring(0, colon);
      switch (name) {
        case "MemTotal" -> total = kibibytes(line, colon);
        case "MemAvailable" -> available = kibibytes(line, colon);
        case "Cached" -> cached = kibibytes(line, colon);
        case "Dirty" -> dirty = kibibytes(line, colon);
        default -> {}
      }
    }
    if (total < 0 || available < 0) {
      throw new IllegalArgumentException(
          "/proc/meminfo has no "
              + (total < 0 ? "MemTotal" : "MemAvailable")
              + " line (MemAvailable needs Linux 3.14 or later)");
    }
    return new MemInfo(total, available, cached, dirty);
  }

  private static long kibibytes(String line, int colon) {
    String[] f = line.substring(colon + 1).trim().split("\\s+");
    long value = Long.parseLong(f[0]);
    if (f.length > 1 && !f[1].equalsIgnoreCase("kB")) {
      throw new IllegalArgumentException("unexpected unit in /proc/meminfo line '" + line + "'");
    }
    return f.length > 1 ? value * 1024 : value;
  }
}
