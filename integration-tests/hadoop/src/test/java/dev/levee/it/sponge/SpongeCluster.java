package dev.levee.it.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.zk.ZooKeeperServers;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.server.JobSecretRelayingShuffleHandler;
import dev.levee.sponge.server.SpongeAuxService;
import dev.levee.sponge.server.SpongeServerMetricsMBean;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapred.ShuffleHandler;

/**
 * The cluster the SpongeFiles tests on YARN share: three NodeManagers, each running the sponge aux
 * service declared once, as in yarn-site.xml, with a small pool (12 chunks of 1 MiB), and a
 * ZooKeeper server for the memory tracker. Test classes register {@link #SHARED}; one whose tests
 * leave a NodeManager without its sponge declares a high {@code @Order} so that it runs last.
 */
public final class SpongeCluster {
  public static final int NODE_MANAGERS = 3;
  public static final int POOL_CHUNKS = 12;
  public static final int CHUNK = 1 << 20;

  public static final SharedClusterExtension SHARED =
      SharedClusterExtension.named("it-sponge", SpongeCluster::spec);

  private SpongeCluster() {}

  static MiniMapReduceCluster.Builder spec() {
    if (!Files.isDirectory(Path.of("/dev/shm"))) {
      throw new IllegalStateException("SpongeFiles pools need /dev/shm (tmpfs)");
    }
    Path poolRoot =
        Path.of("/dev/shm", "levee-it-sponge-" + UUID.randomUUID().toString().substring(0, 8));
    TestingServer zooKeeper;
    try {
      zooKeeper = ZooKeeperServers.standalone(Path.of("target", "zookeeper"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the sponge tests' ZooKeeper", e);
    }
    Path clusterSecret = clusterSecret();
    return MiniMapReduceCluster.builder()
        .nodeManagers(NODE_MANAGERS)
        .dataNodes(1)
        .auxService(SpongeAuxService.SERVICE_NAME, SpongeAuxService.class)
        .set(SpongeConf.LOCAL_POOL_DIR.name(), poolRoot.toString())
        .set(SpongeConf.LOCAL_POOL_SIZE.name(), (POOL_CHUNKS * CHUNK / (1 << 20)) + "m")
        .set(SpongeConf.CHUNK_SIZE.name(), "1m")
        .set(SpongeConf.PORT.name(), "0")
        .set(SpongeConf.ZK_QUORUM.name(), zooKeeper.getConnectString())
        .set(SpongeConf.TRACKER_POLL_MS.name(), "200")
        .set(SpongeConf.GC_PERIOD_MS.name(), "1000")
        // A secure cluster's settings: every connection authenticates, tasks with their job's
        // secret (which the ShuffleHandler in its relaying form leaves for the sponge service),
        // servers with the cluster's.
        .auxService(
            ShuffleHandler.MAPREDUCE_SHUFFLE_SERVICEID, JobSecretRelayingShuffleHandler.class)
        .set(SpongeConf.AUTH_REQUIRED.name(), "true")
        .set(SpongeConf.AUTH_SECRET_FILE.name(), clusterSecret.toString())
        // Ended applications' derived secrets go void within 1 s, not the default 30 s.
        .set(SpongeConf.AUTH_APPLICATION_CHECK_MS.name(), "1000")
        .closeAfter(zooKeeper)
        .closeAfter(
            new AutoCloseable() {
              @Override
              public void close() {
                FileUtil.fullyDelete(poolRoot.toFile());
              }

              @Override
              public String toString() {
                return "sponge pools under " + poolRoot;
              }
            });
  }

  /** 32 random bytes, readable only by this user, as an operator would create them. */
  private static Path clusterSecret() {
    try {
      Path file = Files.createTempFile(Path.of("target").toAbsolutePath(), "it-sponge-", ".secret");
      byte[] secret = new byte[32];
      new SecureRandom().nextBytes(secret);
      Files.write(file, secret);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** NodeManager {@code nm}'s sponge aux service. */
  public static SpongeAuxService sponge(MiniMapReduceCluster cluster, int nm) {
    return cluster.auxService(nm, SpongeAuxService.class);
  }

  /** Waits (10 s at most) until every NodeManager's pool is free and holds no remote chunk. */
  public static void assertPoolsEmpty(MiniMapReduceCluster cluster) throws InterruptedException {
    for (int nm = 0; nm < NODE_MANAGERS; nm++) {
      awaitPoolEmpty(nm, sponge(cluster, nm).node().metrics());
    }
  }

  /**
   * Frees after a job are synchronous in the task; the wait only covers the aux service's
   * application-end event.
   */
  public static void awaitPoolEmpty(int nm, SpongeServerMetricsMBean m)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while ((m.getChunksFree() != m.getChunksTotal() || m.getRemoteChunksHeld() != 0)
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(
        m.getChunksTotal(),
        m.getChunksFree(),
        "pool of NodeManager " + nm + " is empty after the job");
    assertEquals(
        0, m.getRemoteChunksHeld(), "NodeManager " + nm + " holds no remote chunks after the job");
  }
}
