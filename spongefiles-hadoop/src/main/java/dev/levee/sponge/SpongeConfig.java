package dev.levee.sponge;

import static dev.levee.sponge.SpongeConfigKeys.*;

import dev.levee.sponge.local.ChunkOwner;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.StringUtils;

/**
 * SpongeFiles settings, read once from a Hadoop {@link Configuration} and validated; immutable. A
 * bad value fails here with an {@link IllegalArgumentException} naming the key, the value and what
 * is allowed. See {@link SpongeConfigKeys} for every key and its default.
 */
public final class SpongeConfig {
  public static final int MIN_CHUNK_SIZE = 4096;
  public static final int MAX_CHUNK_SIZE = 1 << 30;
  public static final int MAX_IN_FLIGHT = 64;

  private final int chunkSize;
  private final boolean localEnabled;
  private final Path poolDir;
  private final long poolSize;
  private final boolean remoteEnabled;
  private final boolean diskEnabled;
  private final List<Path> diskDirs;
  private final boolean dfsEnabled;
  private final String dfsDir;
  private final int maxInFlightWrites;
  private final boolean prefetch;
  private final String ownerHost;

  private SpongeConfig(Configuration conf) {
    chunkSize = (int) size(conf, CHUNK_SIZE, CHUNK_SIZE_DEFAULT, MIN_CHUNK_SIZE, MAX_CHUNK_SIZE);
    localEnabled = bool(conf, LOCAL_ENABLED, LOCAL_ENABLED_DEFAULT);
    poolDir = path(conf, LOCAL_POOL_DIR, LOCAL_POOL_DIR_DEFAULT);
    poolSize = size(conf, LOCAL_POOL_SIZE, LOCAL_POOL_SIZE_DEFAULT, chunkSize, Long.MAX_VALUE);
    remoteEnabled = bool(conf, REMOTE_ENABLED, REMOTE_ENABLED_DEFAULT);
    diskEnabled = bool(conf, DISK_ENABLED, DISK_ENABLED_DEFAULT);
    diskDirs = diskDirs(conf);
    dfsEnabled = bool(conf, DFS_ENABLED, DFS_ENABLED_DEFAULT);
    dfsDir = conf.getTrimmed(DFS_DIR, DFS_DIR_DEFAULT);
    if (dfsEnabled && dfsDir.isEmpty()) {
      throw bad(DFS_DIR, dfsDir, "a directory path or URI (or set " + DFS_ENABLED + "=false)");
    }
    maxInFlightWrites =
        integer(conf, WRITE_MAX_IN_FLIGHT, WRITE_MAX_IN_FLIGHT_DEFAULT, 1, MAX_IN_FLIGHT);
    prefetch = bool(conf, READ_PREFETCH, READ_PREFETCH_DEFAULT);
    String host = conf.getTrimmed(OWNER_HOST, "");
    if (host.getBytes(StandardCharsets.UTF_8).length > ChunkOwner.MAX_HOST_BYTES) {
      throw bad(
          OWNER_HOST, host, "a host name of at most " + ChunkOwner.MAX_HOST_BYTES + " UTF-8 bytes");
    }
    ownerHost = host.isEmpty() ? ChunkOwner.localHostName() : host;
  }

  /** Reads and validates every {@code levee.sponge.*} key. */
  public static SpongeConfig from(Configuration conf) {
    return new SpongeConfig(Objects.requireNonNull(conf, "conf"));
  }

  public int chunkSize() {
    return chunkSize;
  }

  public boolean localEnabled() {
    return localEnabled;
  }

  public Path poolDir() {
    return poolDir;
  }

  public long poolSize() {
    return poolSize;
  }

  public boolean remoteEnabled() {
    return remoteEnabled;
  }

  public boolean diskEnabled() {
    return diskEnabled;
  }

  /** Never empty. */
  public List<Path> diskDirs() {
    return diskDirs;
  }

  public boolean dfsEnabled() {
    return dfsEnabled;
  }

  /** As configured: a path on the default file system or a full URI. */
  public String dfsDir() {
    return dfsDir;
  }

  public int maxInFlightWrites() {
    return maxInFlightWrites;
  }

  public boolean prefetch() {
    return prefetch;
  }

  public String ownerHost() {
    return ownerHost;
  }

  @Override
  public String toString() {
    return "SpongeConfig{chunkSize="
        + chunkSize
        + ", local="
        + (localEnabled ? poolDir + " " + poolSize + " B" : "off")
        + ", remote="
        + remoteEnabled
        + ", disk="
        + (diskEnabled ? diskDirs : "off")
        + ", dfs="
        + (dfsEnabled ? dfsDir : "off")
        + ", inFlight="
        + maxInFlightWrites
        + ", prefetch="
        + prefetch
        + ", ownerHost="
        + ownerHost
        + "}";
  }

  private static List<Path> diskDirs(Configuration conf) {
    String raw = conf.getTrimmed(DISK_DIRS, "");
    List<Path> dirs = new ArrayList<>();
    for (String s : raw.split(",")) {
      String d = s.trim();
      if (d.isEmpty()) {
        continue;
      }
      if (d.startsWith("file://")) {
        d = d.substring("file://".length());
      }
      try {
        Path p = Path.of(d);
        if (!p.isAbsolute()) {
          throw bad(
              DISK_DIRS,
              raw,
              "comma-separated absolute local directories; '" + s.trim() + "' is relative");
        }
        dirs.add(p);
      } catch (InvalidPathException e) {
        throw bad(
            DISK_DIRS,
            raw,
            "comma-separated absolute local directories; '" + s.trim() + "' is not a path");
      }
    }
    if (dirs.isEmpty()) {
      dirs.add(Path.of(System.getProperty("java.io.tmpdir"), "levee-sponge"));
    }
    return List.copyOf(dirs);
  }

  private static Path path(Configuration conf, String key, String dflt) {
    String v = conf.getTrimmed(key, dflt);
    try {
      Path p = Path.of(v);
      if (v.isEmpty() || !p.isAbsolute()) {
        throw bad(key, v, "an absolute local directory");
      }
      return p;
    } catch (InvalidPathException e) {
      throw bad(key, v, "an absolute local directory");
    }
  }

  private static long size(Configuration conf, String key, String dflt, long min, long max) {
    String v = conf.getTrimmed(key, dflt);
    long n;
    try {
      n = StringUtils.TraditionalBinaryPrefix.string2long(v);
    } catch (IllegalArgumentException e) {
      throw bad(
          key, v, "a byte count such as 1048576, 64k, 1m or 2g between " + min + " and " + max);
    }
    if (n < min || n > max) {
      throw bad(key, v, "a byte count between " + min + " and " + max);
    }
    return n;
  }

  private static int integer(Configuration conf, String key, int dflt, int min, int max) {
    String v = conf.getTrimmed(key, Integer.toString(dflt));
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw bad(key, v, "an integer between " + min + " and " + max);
    }
    if (n < min || n > max) {
      throw bad(key, v, "an integer between " + min + " and " + max);
    }
    return n;
  }

  /**
   * A boolean key that must say true or false: Hadoop's getBoolean would take a typo as the
   * default.
   */
  public static boolean bool(Configuration conf, String key, boolean dflt) {
    String v = conf.getTrimmed(key, Boolean.toString(dflt));
    switch (v.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw bad(key, v, "true or false");
    }
  }

  private static IllegalArgumentException bad(String key, String value, String allowed) {
    return new IllegalArgumentException("invalid " + key + "='" + value + "': expected " + allowed);
  }
}
