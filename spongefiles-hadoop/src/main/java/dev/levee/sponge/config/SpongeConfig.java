package dev.levee.sponge.config;

import dev.levee.config.ConfigSource;
import dev.levee.sponge.local.ChunkOwner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;

/**
 * What a process's SpongeFiles need to know: chunk geometry, the node's pool, the tiers to spill
 * to, read and write pipelining. Read once through {@link SpongeConf} (a bad value fails there,
 * naming the key, the value and what is allowed) and immutable.
 *
 * @param poolDir the node's pool directory
 * @param localAccess whether a task maps the pool or reaches it through the node's server
 * @param remoteReplicas copies of each remote chunk, each on a different server
 * @param diskDirs never empty
 * @param dfsDir as configured: a path on the default file system or a full URI
 * @param freeCloseWaitMillis how long closing waits for background frees
 */
public record SpongeConfig(
    int chunkSize,
    boolean localEnabled,
    SpongeConf.LocalAccess localAccess,
    Path poolDir,
    long poolSize,
    boolean remoteEnabled,
    int remoteReplicas,
    boolean diskEnabled,
    List<Path> diskDirs,
    boolean dfsEnabled,
    String dfsDir,
    int maxInFlightWrites,
    boolean prefetch,
    int freeCloseWaitMillis,
    String ownerHost) {

  public SpongeConfig {
    diskDirs = List.copyOf(diskDirs);
  }

  /** Reads and validates the keys a process's files use. */
  public static SpongeConfig from(Configuration conf) {
    ConfigSource s = SpongeConf.source(Objects.requireNonNull(conf, "conf"));
    int chunk = SpongeConf.CHUNK_SIZE.from(s);
    long pool = SpongeConf.LOCAL_POOL_SIZE.from(s);
    if (pool < chunk) {
      throw new dev.levee.config.ConfigException(
          SpongeConf.LOCAL_POOL_SIZE.name(),
          Objects.requireNonNullElse(
                  s.get(SpongeConf.LOCAL_POOL_SIZE.name()),
                  SpongeConf.LOCAL_POOL_SIZE.defaultText())
              .trim(),
          "at least one chunk (" + SpongeConf.CHUNK_SIZE.name() + "=" + chunk + ")");
    }
    String owner = SpongeConf.OWNER_HOST.from(s);
    boolean dfs = SpongeConf.DFS_ENABLED.from(s);
    String dfsDir = SpongeConf.DFS_DIR.from(s);
    if (dfs && dfsDir.isEmpty()) {
      throw new dev.levee.config.ConfigException(
          SpongeConf.DFS_DIR.name(),
          dfsDir,
          "a directory path or URI (or set " + SpongeConf.DFS_ENABLED.name() + "=false)");
    }
    return new SpongeConfig(
        chunk,
        SpongeConf.LOCAL_ENABLED.from(s),
        SpongeConf.LOCAL_ACCESS.from(s),
        Path.of(SpongeConf.LOCAL_POOL_DIR.from(s)),
        pool,
        SpongeConf.REMOTE_ENABLED.from(s),
        SpongeConf.REMOTE_REPLICAS.from(s),
        SpongeConf.DISK_ENABLED.from(s),
        diskDirs(SpongeConf.DISK_DIRS.from(s)),
        dfs,
        dfsDir,
        SpongeConf.WRITE_MAX_IN_FLIGHT.from(s),
        SpongeConf.READ_PREFETCH.from(s),
        SpongeConf.FREE_CLOSE_WAIT_MS.from(s),
        owner.isEmpty() ? ChunkOwner.localHostName() : owner);
  }

  private static List<Path> diskDirs(String raw) {
    List<Path> dirs = new ArrayList<>();
    for (String part : raw.split(",")) {
      String d = part.trim();
      if (!d.isEmpty()) {
        dirs.add(Path.of(d.startsWith("file://") ? d.substring("file://".length()) : d));
      }
    }
    if (dirs.isEmpty()) {
      dirs.add(Path.of(System.getProperty("java.io.tmpdir"), "levee-sponge"));
    }
    return dirs;
  }

  @Override
  public String toString() {
    return "SpongeConfig{chunkSize="
        + chunkSize
        + ", local="
        + (localEnabled
            ? poolDir
                + " "
                + poolSize
                + " B, access "
                + localAccess.name().toLowerCase(java.util.Locale.ROOT)
            : "off")
        + ", remote="
        + (remoteEnabled ? remoteReplicas + (remoteReplicas == 1 ? " copy" : " copies") : "off")
        + ", disk="
        + (diskEnabled ? diskDirs : "off")
        + ", dfs="
        + (dfsEnabled ? dfsDir : "off")
        + ", inFlight="
        + maxInFlightWrites
        + ", prefetch="
        + prefetch
        + ", freeCloseWait="
        + freeCloseWaitMillis
        + " ms, ownerHost="
        + ownerHost
        + "}";
  }
}
