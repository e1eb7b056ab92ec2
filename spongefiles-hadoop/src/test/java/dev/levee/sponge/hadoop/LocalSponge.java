package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeConfigKeys;
import dev.levee.sponge.server.SpongeNode;
import dev.levee.sponge.server.SpongeServerConfig;
import java.io.IOException;
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
  private final SpongeNode node;

  private LocalSponge(Path poolDir, SpongeNode node) {
    this.poolDir = poolDir;
    this.node = node;
  }

  static LocalSponge start(Path work) throws IOException {
    if (!org.apache.log4j.Logger.getRootLogger().getAllAppenders().hasMoreElements()) {
      org.apache.log4j.BasicConfigurator.configure();
      org.apache.log4j.Logger.getRootLogger().setLevel(org.apache.log4j.Level.WARN);
      org.apache.log4j.Logger.getLogger("dev.levee").setLevel(org.apache.log4j.Level.INFO);
    }
    Path pool = work.resolve("pool");
    Configuration server = nodeKeys(new Configuration(false), pool);
    server.set(SpongeServerConfig.BIND_HOST, "127.0.0.1");
    server.set(SpongeServerConfig.PORT, "0");
    return new LocalSponge(pool, SpongeNode.start(SpongeServerConfig.from(server)));
  }

  /** The keys a node's sponge server and its tasks share. */
  private static Configuration nodeKeys(Configuration c, Path pool) {
    c.set(SpongeConfigKeys.LOCAL_POOL_DIR, pool.toString());
    c.set(SpongeConfigKeys.LOCAL_POOL_SIZE, Long.toString((long) POOL_CHUNKS * CHUNK));
    c.set(SpongeConfigKeys.CHUNK_SIZE, Integer.toString(CHUNK));
    c.set(SpongeConfigKeys.OWNER_HOST, "127.0.0.1");
    c.set(SpongeConfigKeys.DFS_ENABLED, "false");
    c.set(SpongeServerConfig.ADVERTISED_HOST, "127.0.0.1");
    return c;
  }

  /** Switches SpongeFiles on for {@code job}, against this node. */
  JobConf configure(JobConf job) {
    return configure(job, node.address().port());
  }

  /** Switches SpongeFiles on for {@code job}, against whatever listens on {@code port}. */
  JobConf configure(JobConf job, int port) {
    nodeKeys(job, poolDir);
    job.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, SpongeShuffleKeys.PLUGIN_CLASS);
    job.setInt(SpongeServerConfig.PORT, port);
    return job;
  }

  SpongeNode node() {
    return node;
  }

  @Override
  public void close() {
    node.close();
  }
}
