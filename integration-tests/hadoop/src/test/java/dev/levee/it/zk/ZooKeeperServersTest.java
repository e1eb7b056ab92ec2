package dev.levee.it.zk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZooKeeperServersTest {

  @TempDir Path dir;

  @Test
  void standaloneServerStoresAndReturnsData() throws Exception {
    try (TestingServer server = ZooKeeperServers.standalone(dir);
        CuratorFramework client = connect(server.getConnectString())) {
      assertTrue(
          server.getTempDirectory().toPath().startsWith(dir),
          "data dir " + server.getTempDirectory());
      byte[] data = "rendezvous".getBytes(StandardCharsets.UTF_8);
      client.create().creatingParentsIfNeeded().forPath("/levee/it/standalone", data);
      assertArrayEquals(data, client.getData().forPath("/levee/it/standalone"));
    }
  }

  @Test
  void ensembleKeepsServingAfterItsLeaderIsKilled() throws Exception {
    try (ZooKeeperEnsemble ensemble = ZooKeeperServers.ensemble(3, dir);
        CuratorFramework client = connect(ensemble.connectString())) {
      byte[] before = "before".getBytes(StandardCharsets.UTF_8);
      client.create().creatingParentsIfNeeded().forPath("/levee/it/before", before);

      InstanceSpec killed = ensemble.killLeader();

      // Curator retries through the election; both the old data and a new write must survive.
      byte[] after = "after".getBytes(StandardCharsets.UTF_8);
      client.create().creatingParentsIfNeeded().forPath("/levee/it/after", after);
      assertArrayEquals(before, client.getData().forPath("/levee/it/before"));
      assertArrayEquals(after, client.getData().forPath("/levee/it/after"));
      assertNotEquals(killed, ensemble.leader(), "a surviving member leads now");
    }
  }

  /** Failover tests need sessions longer than an election: the ensemble grants a minute. */
  @Test
  void ensembleGrantsSessionsLongerThanZooKeepersDefaultCap() throws Exception {
    try (ZooKeeperEnsemble ensemble = ZooKeeperServers.ensemble(3, dir);
        CuratorFramework client =
            CuratorFrameworkFactory.newClient(
                ensemble.connectString(), 60_000, 5_000, new ExponentialBackoffRetry(200, 10))) {
      client.start();
      assertTrue(client.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS));
      assertEquals(60_000, client.getZookeeperClient().getZooKeeper().getSessionTimeout());
    }
  }

  private static CuratorFramework connect(String connectString) throws InterruptedException {
    CuratorFramework client =
        CuratorFrameworkFactory.newClient(
            connectString, 20_000, 5_000, new ExponentialBackoffRetry(200, 10));
    client.start();
    if (!client.blockUntilConnected(20, java.util.concurrent.TimeUnit.SECONDS)) {
      client.close();
      throw new IllegalStateException(
          "no ZooKeeper connection to " + connectString + " within 20 s");
    }
    return client;
  }
}
