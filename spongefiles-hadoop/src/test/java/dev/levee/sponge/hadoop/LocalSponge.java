package dev.levee.sponge.hadoop;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.server.SpongeService;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRConfig;

/**
 * A real sponge node (server and shared-memory pool) in the test JVM on loopback, and the job
 * settings that point a LocalJobRunner job's reduce at it, as a NodeManager's descriptor would.
 */
final class LocalSponge implements AutoCloseable {
  static final int CHUNK = 64 * 1024;
  static final int POOL_CHUNKS = 1024; // 64 MiB: holds every spill of the test jobs

  private final Path poolDir;
  private final SpongeService node;
  private Path ownedWorkDir;

  private LocalSponge(Path poolDir, SpongeService node) {
    this.poolDir = poolDir;
    this.node = node;
  }

  /** A node in a fresh temporary directory, deleted again by {@link #close()}. */
  static LocalSponge startInTempDir(String prefix) throws IOException {
    Path work = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), prefix);
    LocalSponge sponge = start(work);
    sponge.ownedWorkDir = work;
    return sponge;
  }

  /** The node's pool directory. */
  Path poolDir() {
    return poolDir;
  }

  static LocalSponge start(Path work) throws IOException {
    if (!org.apache.log4j.Logger.getRootLogger().getAllAppenders().hasMoreElements()) {
      org.apache.log4j.BasicConfigurator.configure();
      org.apache.log4j.Logger.getRootLogger().setLevel(org.apache.log4j.Level.WARN);
      org.apache.log4j.Logger.getLogger("dev.levee").setLevel(org.apache.log4j.Level.INFO);
    }
    Path pool = work.resolve("pool");
    Configuration server = nodeKeys(new Configuration(false), pool);
    server.set(SpongeConf.BIND_HOST.name(), "127.0.0.1");
    server.set(SpongeConf.PORT.name(), "0");
    return new LocalSponge(pool, SpongeService.start(SpongeServerConfig.from(server)));
  }

  /** The keys a node's sponge server and its tasks share. */
  private static Configuration nodeKeys(Configuration c, Path pool) {
    c.set(SpongeConf.LOCAL_POOL_DIR.name(), pool.toString());
    c.set(SpongeConf.LOCAL_POOL_SIZE.name(), Long.toString((long) POOL_CHUNKS * CHUNK));
    c.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(CHUNK));
    c.set(SpongeConf.OWNER_HOST.name(), "127.0.0.1");
    c.set(SpongeConf.DFS_ENABLED.name(), "false");
    c.set(SpongeConf.ADVERTISED_HOST.name(), "127.0.0.1");
    // The explicit opt-out: LocalJobRunner has no NodeManager whose shuffle relays job secrets.
    c.set(SpongeConf.AUTH_REQUIRED.name(), "false");
    return c;
  }

  /** Switches SpongeFiles on for {@code job}, against this node. */
  JobConf configure(JobConf job) {
    return configure(job, node.address().port());
  }

  /** Switches SpongeFiles on for {@code job}, against whatever listens on {@code port}. */
  JobConf configure(JobConf job, int port) {
    nodeKeys(job, poolDir);
    job.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SpongeShuffle.PLUGIN_CLASS);
    job.setInt(SpongeConf.PORT.name(), port);
    return job;
  }

  SpongeService node() {
    return node;
  }

  @Override
  public void close() {
    node.close();
    if (ownedWorkDir != null) {
      TempDirs.deleteRecursively(ownedWorkDir);
    }
  }
}
