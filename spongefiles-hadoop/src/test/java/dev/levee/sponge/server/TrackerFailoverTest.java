package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.PublishedServerList;
import dev.levee.sponge.discovery.ServerListCodec;
import dev.levee.sponge.discovery.SpongeZnodes;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.TempDirs;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Three sponge servers elect one memory tracker on a three-node ZooKeeper ensemble. The tracker's
 * server is stopped and a ZooKeeper node killed: another server takes over, and clients keep
 * getting fresh server lists.
 */
@Timeout(180)
class TrackerFailoverTest {
  private static final String ROOT = "/levee/sponge-test";
  private TestingCluster zk;
  private final List<Path> dirs = new ArrayList<>();
  private final List<SpongeService> nodes = new ArrayList<>();
  private CuratorFramework clientZk;

  @BeforeEach
  void setUp() throws Exception {
    zk = new TestingCluster(3);
    zk.start();
    for (int i = 0; i < 3; i++) {
      Path dir = TempDirs.newShmDir("tracker-" + i);
      dirs.add(dir);
      Configuration c = TestNodes.conf(dir, 8 + i);
      c.set(SpongeConf.ZK_QUORUM.name(), zk.getConnectString());
      c.set(SpongeConf.ZK_ROOT.name(), ROOT);
      c.set(SpongeConf.ZK_SESSION_TIMEOUT_MS.name(), "4000");
      c.set(SpongeConf.TRACKER_POLL_MS.name(), "200");
      c.set(SpongeConf.RACK.name(), "rack" + (i % 2));
      nodes.add(SpongeService.start(SpongeServerConfig.from(c)));
    }
    clientZk =
        CuratorFrameworkFactory.newClient(zk.getConnectString(), 4000, 4000, new RetryOneTime(200));
    clientZk.start();
  }

  @AfterEach
  void tearDown() throws Exception {
    clientZk.close();
    nodes.forEach(SpongeService::close);
    zk.close();
    dirs.forEach(TempDirs::deleteRecursively);
  }

  @Test
  void anotherServerTakesOverTheTrackerAndClientsStillGetServerLists() throws Exception {
    PublishedServerList published = new PublishedServerList(clientZk, new SpongeZnodes(ROOT));
    Set<SpongeServerAddress> all =
        nodes.stream().map(SpongeService::address).collect(Collectors.toSet());
    ServerListCodec.Published first = await(published, p -> addresses(p).equals(all));
    assertEquals(10, first.servers().get(0).freeChunks(), "most free first: " + first.servers());

    List<SpongeService> leaders = nodes.stream().filter(SpongeService::isTracker).toList();
    assertEquals(1, leaders.size(), "exactly one tracker");
    SpongeService oldLeader = leaders.get(0);
    assertEquals(oldLeader.nodeName(), first.tracker());

    // Fill one server: the tracker drops it from the list at its next poll.
    SpongeService filled = nodes.stream().filter(n -> n != oldLeader).findFirst().orElseThrow();
    try (SpongeClient filler = client("application_9_0001")) {
      while (filler.store(filled.address(), ByteBuffer.allocate(10)).isPresent()) {
        // take every chunk
      }
    }
    await(published, p -> !addresses(p).contains(filled.address()));

    nodes.remove(oldLeader);
    oldLeader.close();
    InstanceSpec victim = zk.getInstances().iterator().next();
    zk.killServer(victim);

    ServerListCodec.Published after =
        await(
            published,
            p ->
                !p.tracker().equals(oldLeader.nodeName())
                    && !addresses(p).contains(oldLeader.address()));
    assertNotEquals(oldLeader.nodeName(), after.tracker());
    // Losing a ZooKeeper node suspends sessions, so leadership may flap once before it settles on
    // one server.
    ServerListCodec.Published settled =
        await(
            published,
            p -> {
              List<SpongeService> trackers =
                  nodes.stream().filter(SpongeService::isTracker).toList();
              return trackers.size() == 1
                  && trackers.get(0).nodeName().equals(p.tracker())
                  && p.publishedAtMillis() > after.publishedAtMillis();
            });
    assertTrue(
        nodes.stream().filter(SpongeService::isTracker).count() <= 1,
        "never two trackers once settled");
    assertNotEquals(oldLeader.nodeName(), settled.tracker());

    try (SpongeClient client = client("application_9_0002")) {
      List<SpongeServerAddress> servers = client.serversWithFreeChunks();
      assertEquals(1, servers.size(), "only the server with room is listed: " + servers);
      SpongeService withRoom = nodes.stream().filter(n -> n != filled).findFirst().orElseThrow();
      assertEquals(withRoom.address(), servers.get(0));
      RemoteChunk c =
          client.store(servers.get(0), ByteBuffer.wrap(new byte[] {1, 2, 3})).orElseThrow();
      ByteBuffer back = ByteBuffer.allocate(3);
      client.read(c, back);
      assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), back.flip());
    }
  }

  private SpongeClient client(String app) {
    return new SpongeClient(
        ClientIdentity.ofCurrentProcess(app, "127.0.0.1:1", "rack0"),
        new PublishedServerList(clientZk, new SpongeZnodes(ROOT)),
        new ClientSettings(2000, 5000, TestNodes.CHUNK, 2));
  }

  private static Set<SpongeServerAddress> addresses(ServerListCodec.Published p) {
    return p.servers().stream().map(e -> e.address()).collect(Collectors.toSet());
  }

  private static ServerListCodec.Published await(
      PublishedServerList list, Predicate<ServerListCodec.Published> ok) throws Exception {
    long deadline = System.nanoTime() + 60_000_000_000L;
    ServerListCodec.Published last = null;
    while (System.nanoTime() < deadline) {
      try {
        last = list.published();
        if (ok.test(last)) {
          return last;
        }
      } catch (java.io.IOException e) {
        // ZooKeeper is re-electing; ask again
      }
      Thread.sleep(100);
    }
    throw new AssertionError("published server list never matched; last: " + last);
  }
}
