package dev.levee.bench.cli;

import java.util.Locale;

/** Byte sizes for humans: "512m" in, "512.0 MiB" out. Binary multiples throughout. */
public final class Sizes {
  private Sizes() {}

  public static long parseBytes(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.endsWith("b")) {
      t = t.substring(0, t.length() - 1);
    }
    if (t.endsWith("i")) {
      t = t.substring(0, t.length() - 1);
    }
    int shift = 0;
    if (!t.isEmpty()) {
      switch (t.charAt(t.length() - 1)) {
        case 'k' -> shift = 10;
        case 'm' -> shift = 20;
        case 'g' -> shift = 30;
        case 't' -> shift = 40;
        default -> shift = 0;
      }
    }
    if (shift != 0) {
      t = t.substring(0, t.length() - 1);
    }
    long n = Long.parseLong(t.replace("_", ""));
    if (n < 0 || (shift > 0 && n > (Long.MAX_VALUE >> shift))) {
      throw new NumberFormatException("size out of range: " + text);
    }
    return n << shift;
  }

  public static String format(long bytes) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = bytes;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u == 0 ? bytes + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
