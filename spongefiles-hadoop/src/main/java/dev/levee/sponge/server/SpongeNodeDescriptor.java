package dev.levee.sponge.server;

import dev.levee.config.ConfigSource;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.local.PoolDirectory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;

/**
 * What a task needs to use its node's sponge: the pool's location and geometry, the node's server
 * and the ZooKeeper root its tracker publishes to. The NodeManager aux service writes it into each
 * of the NodeManager's local dirs; a task finds it from its own local dirs, which YARN creates
 * under those. This is how a task reaches <em>its</em> NodeManager's sponge when one yarn-site.xml
 * configures every node, and when several NodeManagers share a host (each then runs its own pool
 * and port).
 *
 * <p>File format: Java properties, keyed by the same {@code levee.sponge.*} names the values come
 * from, plus the pid of the process serving the node (the NodeManager; 0 when unknown, as in
 * descriptors written before it was added). {@code authRequired} is the node's server's {@code
 * levee.sponge.server.auth.required}, which its tasks follow (so an operator who opts a cluster out
 * of authentication in yarn-site.xml need not repeat it for every job); null in descriptors written
 * before it was added, whose tasks keep their job's value.
 *
 * <p>A NodeManager killed with SIGKILL never withdraws its descriptor, so a task may find one whose
 * server is gone: {@link #staleReason} tells.
 */
public record SpongeNodeDescriptor(
    Path poolDir,
    long poolSizeBytes,
    int chunkSize,
    String ownerHost,
    String advertisedHost,
    int port,
    String rack,
    String zkQuorum,
    String zkRoot,
    long serverPid,
    Boolean authRequired) {

  /** Where the descriptor sits inside a NodeManager local dir. */
  public static final String RELATIVE_PATH = "levee-sponge/node.properties";

  /**
   * The directory holding the descriptor (and the job secrets' directory): the NodeManager's
   * user's, readable by every user (tasks of every user read the descriptor), writable by nobody
   * else.
   */
  public static final PoolDirectory.Purpose NODE_DIR =
      new PoolDirectory.Purpose(
          "sponge node directory",
          PosixFilePermissions.fromString("rwxr-xr-x"),
          "; remove it and restart the NodeManager (only root and the NodeManager's user may be"
              + " able to create or replace it or any directory above it)");

  private static final String FORMAT_KEY = "levee.sponge.node.descriptor.version";
  private static final String FORMAT_VERSION = "1";

  /** Optional (older descriptors lack it), so the format version stays 1. */
  static final String SERVER_PID_KEY = "levee.sponge.node.server.pid";

  /** A descriptor whose serving process and authentication setting are unknown. */
  public SpongeNodeDescriptor(
      Path poolDir,
      long poolSizeBytes,
      int chunkSize,
      String ownerHost,
      String advertisedHost,
      int port,
      String rack,
      String zkQuorum,
      String zkRoot) {
    this(
        poolDir,
        poolSizeBytes,
        chunkSize,
        ownerHost,
        advertisedHost,
        port,
        rack,
        zkQuorum,
        zkRoot,
        0,
        null);
  }

  /**
   * The descriptor of the server this process runs (the aux service runs inside the NodeManager).
   */
  public static SpongeNodeDescriptor of(SpongeServerConfig config, int port) {
    return new SpongeNodeDescriptor(
        config.poolDir(),
        config.poolCapacityBytes(),
        config.chunkSize(),
        config.ownerHost(),
        config.advertisedHost(),
        port,
        config.rack(),
        config.zkQuorum(),
        config.zkRoot(),
        ProcessHandle.current().pid(),
        config.auth().required());
  }

  /**
   * Why this descriptor no longer describes a running server, or empty when it may well: stale
   * means nothing accepts connections on its host and port (a NodeManager killed with SIGKILL
   * leaves its descriptor behind). A dead server pid alone proves nothing (the task may run in
   * another pid namespace), so it only explains the refusal; a connection that is slow or times out
   * is left to the caller's own probe.
   */
  public Optional<String> staleReason(int connectTimeoutMillis) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(advertisedHost, port), connectTimeoutMillis);
      return Optional.empty();
    } catch (ConnectException e) {
      String who =
          serverPid <= 0
              ? ""
              : ProcessHandle.of(serverPid).map(ProcessHandle::isAlive).orElse(false)
                  ? "; its server process " + serverPid + " is still running"
                  : "; its server process " + serverPid + " is gone";
      return Optional.of(
          "nothing accepts connections at "
              + advertisedHost
              + ":"
              + port
              + " ("
              + e.getMessage()
              + ")"
              + who);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** The directory of the descriptor (and of the job secrets) in one NodeManager local dir. */
  static Path nodeDirIn(Path nodeManagerLocalDir) {
    return nodeManagerLocalDir.resolve(RELATIVE_PATH).getParent();
  }

  /** The descriptor file in one NodeManager local dir. */
  public static Path in(Path nodeManagerLocalDir) {
    return nodeManagerLocalDir.resolve(RELATIVE_PATH);
  }

  /**
   * The NodeManager local dir a container's application dir lives in. YARN lays application dirs
   * out as {@code <nm-local-dir>/usercache/<user>/appcache/<application>} (these are a container's
   * {@code LOCAL_DIRS}, which MapReduce tasks get as {@code mapreduce.cluster.local.dir}); any
   * other path has no NodeManager dir.
   */
  public static Optional<Path> nodeManagerLocalDirOf(Path applicationDir) {
    Path app = applicationDir.toAbsolutePath().normalize();
    Path appcache = app.getParent();
    Path user = appcache == null ? null : appcache.getParent();
    Path usercache = user == null ? null : user.getParent();
    if (usercache == null
        || usercache.getParent() == null
        || !appcache.getFileName().toString().equals("appcache")
        || !usercache.getFileName().toString().equals("usercache")) {
      return Optional.empty();
    }
    return Optional.of(usercache.getParent());
  }

  /** Writes atomically (temp file, then rename), so a task never reads half a descriptor. */
  public void writeTo(Path file) throws IOException {
    PoolDirectory.secure(file.getParent(), PoolDirectory.currentUser(), NODE_DIR);
    Path tmp = Files.createTempFile(file.getParent(), ".node", ".tmp");
    try {
      // Temp files start owner-only; tasks of every user on the node must read this one.
      if (Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
      }
      try (OutputStream out = Files.newOutputStream(tmp)) {
        toProperties()
            .store(
                out,
                "SpongeFiles node descriptor, written by the NodeManager's sponge aux service");
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /**
   * Reads a descriptor written by {@link #writeTo}.
   *
   * @throws IOException when the file cannot be read or a value is missing or malformed (the
   *     message names the file and the key)
   */
  public static SpongeNodeDescriptor readFrom(Path file) throws IOException {
    return readFrom(file, writerOf(file));
  }

  /**
   * Who must have written the descriptor: the owner of the NodeManager local dir holding it (the
   * NodeManager's user, who created that dir).
   */
  static UserPrincipal writerOf(Path file) throws IOException {
    Path localDir = file.toAbsolutePath().normalize().getParent().getParent();
    return Files.getOwner(localDir, LinkOption.NOFOLLOW_LINKS);
  }

  /**
   * Reads a descriptor {@code writer} left: a regular file of that user that nobody else may write,
   * in a directory trusted as the pool's is, so a tenant who could create or swap the directory
   * cannot point tasks at a server of its own.
   */
  static SpongeNodeDescriptor readFrom(Path file, UserPrincipal writer) throws IOException {
    PoolDirectory.checkWrittenBy(file, writer, NODE_DIR);
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      p.load(in);
    }
    String version = p.getProperty(FORMAT_KEY);
    if (!FORMAT_VERSION.equals(version)) {
      throw new IOException(
          "sponge node descriptor "
              + file
              + " has "
              + FORMAT_KEY
              + "="
              + version
              + "; this client reads version "
              + FORMAT_VERSION);
    }
    try {
      String rack = p.getProperty(SpongeConf.RACK.name(), "");
      return new SpongeNodeDescriptor(
          Path.of(required(p, SpongeConf.LOCAL_POOL_DIR.name())),
          Long.parseLong(required(p, SpongeConf.LOCAL_POOL_SIZE.name())),
          Integer.parseInt(required(p, SpongeConf.CHUNK_SIZE.name())),
          required(p, SpongeConf.OWNER_HOST.name()),
          required(p, SpongeConf.ADVERTISED_HOST.name()),
          Integer.parseInt(required(p, SpongeConf.PORT.name())),
          rack.isEmpty() ? null : rack,
          p.getProperty(SpongeConf.ZK_QUORUM.name(), ""),
          required(p, SpongeConf.ZK_ROOT.name()),
          Long.parseLong(p.getProperty(SERVER_PID_KEY, "0").trim()),
          authRequiredIn(p));
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "sponge node descriptor " + file + " is malformed: " + e.getMessage(), e);
    }
  }

  /** The node's authentication setting, null when the descriptor predates it. */
  private static Boolean authRequiredIn(Properties p) {
    String v = p.getProperty(SpongeConf.AUTH_REQUIRED.name());
    return v == null
        ? null
        : SpongeConf.AUTH_REQUIRED.from(
            ConfigSource.of(Map.of(SpongeConf.AUTH_REQUIRED.name(), v)));
  }

  /**
   * {@code base} with this node's values in place of the job's: the pool, the server and the
   * tracker's ZooKeeper are the node's, whatever the job configuration says.
   */
  public Configuration applyTo(Configuration base) {
    Configuration c = new Configuration(base);
    String source = "sponge node descriptor";
    toProperties()
        .forEach(
            (k, v) -> {
              if (!k.equals(FORMAT_KEY) && !k.equals(SERVER_PID_KEY)) {
                c.set((String) k, (String) v, source);
              }
            });
    if (rack == null) {
      c.unset(SpongeConf.RACK.name());
    }
    return c;
  }

  private Properties toProperties() {
    Properties p = new Properties();
    p.setProperty(FORMAT_KEY, FORMAT_VERSION);
    p.setProperty(SpongeConf.LOCAL_POOL_DIR.name(), poolDir.toString());
    p.setProperty(SpongeConf.LOCAL_POOL_SIZE.name(), Long.toString(poolSizeBytes));
    p.setProperty(SpongeConf.CHUNK_SIZE.name(), Integer.toString(chunkSize));
    p.setProperty(SpongeConf.OWNER_HOST.name(), ownerHost);
    p.setProperty(SpongeConf.ADVERTISED_HOST.name(), advertisedHost);
    p.setProperty(SpongeConf.PORT.name(), Integer.toString(port));
    if (rack != null) {
      p.setProperty(SpongeConf.RACK.name(), rack);
    }
    p.setProperty(SpongeConf.ZK_QUORUM.name(), zkQuorum);
    p.setProperty(SpongeConf.ZK_ROOT.name(), zkRoot);
    if (authRequired != null) {
      p.setProperty(SpongeConf.AUTH_REQUIRED.name(), authRequired.toString());
    }
    if (serverPid > 0) {
      p.setProperty(SERVER_PID_KEY, Long.toString(serverPid));
    }
    return p;
  }

  private static String required(Properties p, String key) {
    String v = p.getProperty(key);
    if (v == null || v.isBlank()) {
      throw new IllegalArgumentException(key + " is missing");
    }
    return v.trim();
  }
}
