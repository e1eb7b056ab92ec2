package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.PublishedServerList;
import dev.levee.sponge.discovery.ServerListCodec;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.SpongeZnodes;
import dev.levee.sponge.discovery.ZooKeeperAcl;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.TempDirs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * With a cluster secret, only sponge servers may write SpongeFiles' znodes (issue 13, item 11: a
 * fake server registered in an open ZooKeeper was ranked first and got a real client's chunk).
 */
@Timeout(120)
class ZooKeeperAclTest {
  private static final String ROOT = "/levee/sponge-acl";
  private TestingServer zk;
  private Path pool;
  private Path secretFile;
  private CuratorFramework outsider;
  private SpongeService node;

  @BeforeEach
  void setUp() throws Exception {
    zk = new TestingServer(true);
    pool = TempDirs.newShmDir("zk-acl");
    secretFile = TestNodes.secretFile("a cluster secret of 32 bytes....".getBytes());
    outsider =
        CuratorFrameworkFactory.newClient(zk.getConnectString(), 4000, 4000, new RetryOneTime(200));
    outsider.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    if (node != null) {
      node.close();
    }
    outsider.close();
    zk.close();
    Files.deleteIfExists(secretFile);
    TempDirs.deleteRecursively(pool);
  }

  private SpongeService startServer(boolean withSecret) throws Exception {
    Configuration c = TestNodes.conf(pool, 8);
    c.set(SpongeConf.ZK_QUORUM.name(), zk.getConnectString());
    c.set(SpongeConf.ZK_ROOT.name(), ROOT);
    c.set(SpongeConf.TRACKER_POLL_MS.name(), "100");
    if (withSecret) {
      c.set(SpongeConf.AUTH_SECRET_FILE.name(), secretFile.toString());
    }
    return SpongeService.start(SpongeServerConfig.from(c));
  }

  private static final SpongeServerAddress FAKE = new SpongeServerAddress("10.6.6.6", 6666, null);

  private void registerFakeServer(SpongeZnodes z) throws Exception {
    outsider
        .create()
        .creatingParentsIfNeeded()
        .forPath(z.server("10.6.6.6:6666"), ServerListCodec.encodeServer(FAKE));
  }

  @Test
  void withAClusterSecretAnOutsiderCanReadTheListButRegisterNothing() throws Exception {
    node = startServer(true);
    SpongeZnodes z = new SpongeZnodes(ROOT);
    awaitPublished(z);

    assertThrows(KeeperException.NoAuthException.class, () -> registerFakeServer(z));
    assertThrows(
        KeeperException.NoAuthException.class,
        () -> outsider.setData().forPath(z.freeServers(), new byte[0]),
        "an outsider cannot rewrite the tracker's list");
    assertThrows(
        KeeperException.NoAuthException.class,
        () -> outsider.delete().forPath(z.server(node.nodeName())),
        "an outsider cannot unregister a real server");
    // Tasks read without a credential.
    List<ServerListEntry> listed = new PublishedServerList(outsider, z).serversWithFreeChunks();
    assertEquals(List.of(node.address()), listed.stream().map(ServerListEntry::address).toList());
    assertTrue(
        outsider.getACL().forPath(z.server(node.nodeName())).stream()
            .anyMatch(a -> a.getId().getScheme().equals(ZooKeeperAcl.SCHEME)),
        "the server's own znode carries the servers' ACL");
  }

  @Test
  void aRootLeftOpenByAnEarlierVersionIsTightenedAtStart() throws Exception {
    SpongeZnodes z = new SpongeZnodes(ROOT);
    outsider.create().creatingParentsIfNeeded().forPath(z.servers());
    outsider.create().forPath(z.freeServers(), new byte[0]);
    assertEquals(ZooDefs.Ids.OPEN_ACL_UNSAFE, outsider.getACL().forPath(z.servers()));

    node = startServer(true);

    assertThrows(KeeperException.NoAuthException.class, () -> registerFakeServer(z));
    assertThrows(
        KeeperException.NoAuthException.class,
        () -> outsider.setData().forPath(z.freeServers(), new byte[0]),
        "a list planted before the servers came is theirs now");
  }

  /**
   * The root's parent ({@code /levee}) is shared: another Levee plugin (Piranha's {@code
   * /levee/piranha}) creates its root there, and nobody without the secret can take the parent over
   * or delete the sponge root.
   */
  @Test
  void theSharedParentTakesOtherPluginsRootsAndNothingElse() throws Exception {
    node = startServer(true);
    SpongeZnodes z = new SpongeZnodes(ROOT);
    awaitPublished(z);

    outsider.create().forPath("/levee/piranha");
    outsider.create().forPath("/levee/piranha/run-1");
    outsider.delete().forPath("/levee/piranha/run-1");
    assertThrows(
        KeeperException.NoAuthException.class,
        () -> outsider.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/levee"),
        "an outsider cannot re-permission the shared parent");
    assertThrows(
        KeeperException.NoAuthException.class,
        () -> outsider.setData().forPath("/levee", new byte[] {1}));
    assertThrows(
        KeeperException.NoAuthException.class,
        () -> outsider.delete().forPath("/levee/piranha"),
        "nor delete what lies in it (the sponge root included)");
  }

  /** An earlier version locked {@code /levee} like the root: the servers open it at start. */
  @Test
  void aParentLockedByAnEarlierVersionIsOpenedForOtherPlugins() throws Exception {
    List<ACL> serversOnly =
        ZooKeeperAcl.fromClusterSecret("a cluster secret of 32 bytes....".getBytes(), ROOT)
            .getAclForPath(ROOT);
    outsider.create().withACL(serversOnly).forPath("/levee");
    assertThrows(
        KeeperException.NoAuthException.class,
        () -> outsider.create().forPath("/levee/piranha"),
        "as an earlier version left it");

    node = startServer(true);
    awaitPublished(new SpongeZnodes(ROOT));

    outsider.create().forPath("/levee/piranha");
    assertEquals(
        ZooDefs.Perms.READ | ZooDefs.Perms.CREATE,
        outsider.getACL().forPath("/levee").stream()
            .filter(a -> a.getId().equals(ZooDefs.Ids.ANYONE_ID_UNSAFE))
            .findFirst()
            .orElseThrow()
            .getPerms());
  }

  @Test
  void withoutASecretTheZnodesStayOpenAsBefore() throws Exception {
    node = startServer(false);
    SpongeZnodes z = new SpongeZnodes(ROOT);
    awaitPublished(z);
    registerFakeServer(z);
    assertTrue(outsider.getChildren().forPath(z.servers()).contains("10.6.6.6:6666"));
  }

  private void awaitPublished(SpongeZnodes z) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (outsider.checkExists().forPath(z.freeServers()) == null
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertTrue(outsider.checkExists().forPath(z.freeServers()) != null, "tracker published");
  }
}
