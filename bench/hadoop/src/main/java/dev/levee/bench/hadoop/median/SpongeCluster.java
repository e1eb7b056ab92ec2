package dev.levee.bench.hadoop.median;

import dev.levee.bench.disk.NodeDisks;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.zk.ZooKeeperServers;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.server.JobSecretRelayingShuffleHandler;
import dev.levee.sponge.server.SpongeAuxService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.hadoop.yarn.conf.YarnConfiguration;

/**
 * HDFS + YARN in this JVM with the sponge aux service declared once for every NodeManager, exactly
 * as in yarn-site.xml, plus the ZooKeeper server the sponge servers' memory tracker needs. Each
 * NodeManager's sponge is a pool file under {@code /dev/shm}, deleted on close with everything
 * else.
 */
public final class SpongeCluster implements AutoCloseable {
  private final TestingServer zooKeeper;
  private final MiniMapReduceCluster cluster;
  private final Path pools;
  private final Runnable deletePoolsOnExit;

  private SpongeCluster(
      TestingServer zooKeeper,
      MiniMapReduceCluster cluster,
      Path pools,
      Runnable deletePoolsOnExit) {
    this.zooKeeper = zooKeeper;
    this.cluster = cluster;
    this.pools = pools;
    this.deletePoolsOnExit = deletePoolsOnExit;
  }

  /**
   * Starts ZooKeeper, then the cluster under {@code base}.
   *
   * @param poolTag names the pool directory {@code /dev/shm/levee-<tag>-<pid>}
   * @param poolMb each NodeManager's sponge
   * @param nodeManagerMemoryMb memory each NodeManager offers to containers
   * @param chunkSize the sponge chunk size ({@code levee.sponge.chunk.size}, e.g. {@code 1m})
   */
  public static SpongeCluster start(
      Path base,
      String poolTag,
      int nodeManagers,
      int poolMb,
      int nodeManagerMemoryMb,
      String chunkSize)
      throws Exception {
    return start(
        base,
        poolTag,
        nodeManagers,
        poolMb,
        nodeManagerMemoryMb,
        chunkSize,
        null,
        null,
        base.resolve("zookeeper"));
  }

  /**
   * As above, with the NodeManagers' local dirs in {@code localDirs} when not null (the
   * stock-on-tmpfs arm's cluster), whose disk checker then looks every second, so that a full tmpfs
   * is marked bad within the job that filled it, and ZooKeeper's data in {@code zooKeeperDir}: off
   * an emulated disk, as a real ZooKeeper has its own (its log is synced on every write; on the
   * spindle the jobs and the background readers share, the sessions of SpongeFiles' servers timed
   * out and the tasks spilled to disk instead of to other nodes' memory). With {@code nodeDisks}
   * each NodeManager's local dirs are on a spindle of their own, and HDFS stays under {@code base}.
   */
  public static SpongeCluster start(
      Path base,
      String poolTag,
      int nodeManagers,
      int poolMb,
      int nodeManagerMemoryMb,
      String chunkSize,
      TmpfsLocalDirs localDirs,
      NodeDisks nodeDisks,
      Path zooKeeperDir)
      throws Exception {
    Path pools = Path.of("/dev/shm", "levee-" + poolTag + "-" + ProcessHandle.current().pid());
    // The pools are memory: a bench stopped with Ctrl-C must not leave them behind (after the
    // cluster has stopped).
    Runnable deletePools = () -> FileUtil.fullyDelete(pools.toFile());
    ShutdownHookManager.get().addShutdownHook(deletePools, FileSystem.SHUTDOWN_HOOK_PRIORITY + 5);
    TestingServer zooKeeper = ZooKeeperServers.standalone(zooKeeperDir);
    try {
      MiniMapReduceCluster.Builder builder =
          MiniMapReduceCluster.builder()
              .nodeManagers(nodeManagers)
              .nodeManagerMemoryMb(nodeManagerMemoryMb)
              .baseDir(base)
              .auxService(SpongeAuxService.SERVICE_NAME, SpongeAuxService.class)
              .set(SpongeConf.LOCAL_POOL_DIR.name(), pools.toString())
              .set(SpongeConf.LOCAL_POOL_SIZE.name(), poolMb + "m")
              .set(SpongeConf.CHUNK_SIZE.name(), chunkSize)
              .set(SpongeConf.PORT.name(), "0")
              .set(SpongeConf.ZK_QUORUM.name(), zooKeeper.getConnectString())
              // What a default install runs: every connection authenticated, tasks with their
              // job's secret passed on by the relaying ShuffleHandler, servers with the cluster's.
              .auxService(
                  ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID, JobSecretRelayingShuffleHandler.class)
              .set(SpongeConf.AUTH_SECRET_FILE.name(), clusterSecret(base).toString());
      if (localDirs != null) {
        // A tmpfs is only as good as what frees it: the NodeManagers delete a finished job's
        // local files at once, as on a real cluster, not an hour later as the mini cluster does
        // for debugging, which would leave the next job a full tmpfs. Container logs (not in the
        // local dirs) are kept as long as the other cluster keeps them; stopping then takes
        // ~30 s longer.
        builder
            .nodeManagerLocalDirs(localDirs::dir)
            .set(YarnConfiguration.NM_DISK_HEALTH_CHECK_INTERVAL_MS, "1000")
            .set(YarnConfiguration.DEBUG_NM_DELETE_DELAY_SEC, "0")
            .set(YarnConfiguration.NM_LOG_RETAIN_SECONDS, "3600");
      }
      if (nodeDisks != null) {
        builder.nodeManagerLocalDirs(nodeDisks::dir);
      }
      MiniMapReduceCluster cluster = builder.start().closeOnShutdown();
      return new SpongeCluster(zooKeeper, cluster, pools, deletePools);
    } catch (Exception | Error e) {
      closeQuietly(zooKeeper, e);
      FileUtil.fullyDelete(pools.toFile());
      ShutdownHookManager.get().removeShutdownHook(deletePools);
      throw e;
    }
  }

  public MiniMapReduceCluster cluster() {
    return cluster;
  }

  /** A fresh copy of the job client's configuration. */
  public Configuration clientConf() {
    return cluster.clientConf();
  }

  @Override
  public void close() throws Exception {
    try {
      cluster.close();
    } finally {
      try {
        zooKeeper.close();
      } finally {
        FileUtil.fullyDelete(pools.toFile());
        if (!ShutdownHookManager.get().isShutdownInProgress()) {
          ShutdownHookManager.get().removeShutdownHook(deletePoolsOnExit);
        }
      }
    }
  }

  /** The cluster secret every NodeManager's sponge reads: 32 random bytes, mode 600. */
  private static Path clusterSecret(Path base) throws IOException {
    Files.createDirectories(base);
    Path file = base.resolve("levee-sponge.secret");
    byte[] secret = new byte[32];
    new SecureRandom().nextBytes(secret);
    Files.write(file, secret);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  private static void closeQuietly(AutoCloseable c, Throwable primary) {
    try {
      c.close();
    } catch (Exception suppressed) {
      primary.addSuppressed(suppressed);
    }
  }
}
