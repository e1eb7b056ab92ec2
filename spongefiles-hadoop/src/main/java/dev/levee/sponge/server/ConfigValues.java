package dev.levee.sponge.server;

import org.apache.hadoop.conf.Configuration;

/**
 * Typed, range-checked reads of {@code levee.sponge.*} keys; every failure names key, value and
 * what is allowed.
 */
final class ConfigValues {
  private final Configuration conf;

  ConfigValues(Configuration conf) {
    this.conf = conf;
  }

  String string(String key, String dflt) {
    String v = conf.getTrimmed(key);
    return v == null ? dflt : v;
  }

  int intIn(String key, int dflt, int min, int max) {
    return (int) longIn(key, dflt, min, max);
  }

  long longIn(String key, long dflt, long min, long max) {
    String raw = conf.getTrimmed(key);
    if (raw == null || raw.isEmpty()) {
      return dflt;
    }
    long v;
    try {
      v = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw invalid(key, raw, "an integer in " + min + ".." + max);
    }
    if (v < min || v > max) {
      throw invalid(key, raw, "an integer in " + min + ".." + max);
    }
    return v;
  }

  String zkRoot(String key, String dflt) {
    String v = string(key, dflt);
    if (!v.startsWith("/") || (v.length() > 1 && v.endsWith("/"))) {
      throw invalid(key, v, "an absolute ZooKeeper path not ending in '/'");
    }
    return v;
  }

  static IllegalArgumentException invalid(String key, String value, String allowed) {
    return new IllegalArgumentException("invalid " + key + "='" + value + "': expected " + allowed);
  }
}
