package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteChunkHandle;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.Capability;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A real sponge server on loopback: round trips, capabilities, quotas, a full pool, JMX. */
@Timeout(60)
class SpongeServerTest {
  private static final int CHUNKS = 16;
  private Path dir;
  private SpongeService node;
  private SpongeClient client;
  private SpongeServerAddress server;

  private void start(Configuration conf) throws IOException {
    node = SpongeService.start(SpongeServerConfig.from(conf));
    server = node.address();
    client = TestNodes.client("application_1_0001", "127.0.0.1:1", List.of(server));
  }

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("server");
  }

  @AfterEach
  void tearDown() {
    if (client != null) {
      client.close();
    }
    if (node != null) {
      node.close();
    }
    TempDirs.deleteRecursively(dir);
  }

  @Test
  void roundTripsAreByteExactAtEveryLength() throws IOException {
    start(TestNodes.conf(dir, CHUNKS));
    int[] lengths = {0, 1, TestNodes.CHUNK - 1, TestNodes.CHUNK};
    List<RemoteChunk> stored = new ArrayList<>();
    for (int len : lengths) {
      stored.add(client.store(server, TestNodes.randomBytes(len, len)).orElseThrow());
    }
    assertEquals(CHUNKS - lengths.length, node.metrics().getChunksFree());
    for (int i = 0; i < lengths.length; i++) {
      ByteBuffer back = ByteBuffer.allocate(TestNodes.CHUNK);
      client.read(stored.get(i), back);
      back.flip();
      assertEquals(lengths[i], back.remaining());
      assertEquals(
          TestNodes.randomBytes(lengths[i], lengths[i]), back, "chunk of " + lengths[i] + " bytes");
    }
    for (RemoteChunk c : stored) {
      client.free(c);
    }
    assertEquals(CHUNKS, node.metrics().getChunksFree());
    assertEquals(0, node.metrics().getRemoteChunksHeld());
    IOException gone =
        assertThrows(IOException.class, () -> client.read(stored.get(1), ByteBuffer.allocate(1)));
    assertTrue(
        gone.getMessage().contains("chunk " + ((RemoteChunkHandle) stored.get(1)).index()),
        gone.getMessage());
    assertTrue(gone.getMessage().contains(server.toString()), gone.getMessage());
  }

  @Test
  void onlyTheCapabilityHolderCanReadOrFree() throws IOException {
    start(TestNodes.conf(dir, CHUNKS));
    ByteBuffer secret = TestNodes.randomBytes(5000, 7);
    RemoteChunkHandle mine =
        (RemoteChunkHandle) client.store(server, secret.duplicate()).orElseThrow();
    RemoteChunkHandle forged =
        new RemoteChunkHandle(server, mine.index(), Capability.random(), mine.length());

    IOException refused =
        assertThrows(IOException.class, () -> client.read(forged, ByteBuffer.allocate(5000)));
    assertTrue(refused.getMessage().contains("NO_SUCH_CHUNK"), refused.getMessage());
    try (SpongeClient other =
        TestNodes.client("application_1_0002", "127.0.0.1:2", List.of(server))) {
      other.free(forged);
      assertThrows(IOException.class, () -> other.read(forged, ByteBuffer.allocate(5000)));
    }
    assertEquals(
        CHUNKS - 1, node.metrics().getChunksFree(), "a forged free must not free the chunk");
    assertEquals(3, node.metrics().getCapabilityDenials());

    ByteBuffer back = ByteBuffer.allocate(5000);
    client.read(mine, back);
    assertArrayEquals(secret.array(), back.array());
  }

  @Test
  void quotaPerApplicationAnswersNoRoomAndFollowsFrees() throws IOException {
    Configuration conf = TestNodes.conf(dir, CHUNKS);
    conf.set(SpongeConf.QUOTA_CHUNKS_PER_APP.name(), "3");
    start(conf);
    List<RemoteChunk> held = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      held.add(client.store(server, TestNodes.randomBytes(100, i)).orElseThrow());
    }
    assertEquals(Optional.empty(), client.store(server, TestNodes.randomBytes(100, 9)));
    assertEquals(1, node.metrics().getRejectionsQuota());
    try (SpongeClient otherApp =
        TestNodes.client("application_1_0002", "127.0.0.1:2", List.of(server))) {
      assertTrue(
          otherApp.store(server, TestNodes.randomBytes(100, 1)).isPresent(),
          "quotas are per application");
    }
    client.free(held.remove(0));
    assertTrue(
        client.store(server, TestNodes.randomBytes(100, 3)).isPresent(), "a free gives quota back");

    assertEquals(3, node.releaseApplication("application_1_0001"));
    assertEquals(CHUNKS - 1, node.metrics().getChunksFree());
    assertThrows(IOException.class, () -> client.read(held.get(0), ByteBuffer.allocate(100)));
  }

  @Test
  void fullPoolAnswersNoRoomWithoutLeaking() throws IOException {
    start(TestNodes.conf(dir, 4));
    for (int i = 0; i < 4; i++) {
      assertTrue(client.store(server, TestNodes.randomBytes(10, i)).isPresent());
    }
    assertFalse(client.store(server, TestNodes.randomBytes(10, 5)).isPresent());
    assertEquals(1, node.metrics().getRejectionsPoolFull());
    assertEquals(
        4, node.metrics().getRemoteChunksHeld(), "the refused allocation reserved nothing");
  }

  @Test
  void metricsAreExportedOverJmx() throws Exception {
    start(TestNodes.conf(dir, CHUNKS));
    RemoteChunk c = client.store(server, TestNodes.randomBytes(1234, 1)).orElseThrow();
    client.read(c, ByteBuffer.allocate(1234));
    MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
    ObjectName name = new ObjectName("dev.levee.sponge:type=SpongeServer,port=" + server.port());
    assertEquals(1, mbs.getAttribute(name, "ChunksUsed"));
    assertEquals(CHUNKS - 1, mbs.getAttribute(name, "ChunksFree"));
    assertEquals(1234L, mbs.getAttribute(name, "BytesIn"));
    assertEquals(1234L, mbs.getAttribute(name, "BytesOut"));
    assertEquals(1L, mbs.getAttribute(name, "Allocations"));
    node.close();
    node = null;
    assertFalse(mbs.isRegistered(name));
  }

  @Test
  void aPooledConnectionTheServerTimedOutIsReplacedTransparently() throws Exception {
    Configuration conf = TestNodes.conf(dir, CHUNKS);
    conf.set(SpongeConf.SOCKET_TIMEOUT_MS.name(), "300");
    start(conf);
    RemoteChunk c = client.store(server, TestNodes.randomBytes(2000, 5)).orElseThrow();
    Thread.sleep(800); // the server closes the idle pooled connection meanwhile
    ByteBuffer back = ByteBuffer.allocate(2000);
    client.read(c, back);
    assertEquals(TestNodes.randomBytes(2000, 5), back.flip());
    Thread.sleep(800);
    assertTrue(client.store(server, TestNodes.randomBytes(10, 6)).isPresent());
    assertEquals(
        2, node.metrics().getRemoteChunksHeld(), "the retried allocation was made exactly once");
  }

  @Test
  void badConfigurationFailsNamingKeyValueAndRange() {
    Configuration conf = TestNodes.conf(dir, CHUNKS);
    conf.set(SpongeConf.GC_PERIOD_MS.name(), "soon");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SpongeServerConfig.from(conf));
    assertTrue(e.getMessage().contains("levee.sponge.server.gc-period-ms='soon'"), e.getMessage());
    assertTrue(e.getMessage().contains("between 10 and 86400000"), e.getMessage());
    conf.set(SpongeConf.GC_PERIOD_MS.name(), "500");
    conf.set(SpongeConf.PORT.name(), "70000");
    e = assertThrows(IllegalArgumentException.class, () -> SpongeServerConfig.from(conf));
    assertTrue(e.getMessage().contains("levee.sponge.server.port='70000'"), e.getMessage());
    conf.set(SpongeConf.PORT.name(), "0");
    conf.set(SpongeConf.ZK_ROOT.name(), "levee");
    e = assertThrows(IllegalArgumentException.class, () -> SpongeServerConfig.from(conf));
    assertTrue(e.getMessage().contains("levee.sponge.zookeeper.root='levee'"), e.getMessage());
  }
}
