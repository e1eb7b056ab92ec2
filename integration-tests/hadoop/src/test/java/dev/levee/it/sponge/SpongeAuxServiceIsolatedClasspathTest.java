package dev.levee.it.sponge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.server.SpongeAuxService;
import dev.levee.sponge.server.SpongeNodeDescriptor;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.AuxiliaryService;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The sponge aux service loaded the way many operators deploy aux services: from its own jar
 * through {@code yarn.nodemanager.aux-services.levee_sponge.classpath}, which makes the NodeManager
 * load it in an isolated child-first class loader instead of from its own classpath. Hadoop classes
 * then come from the NodeManager and everything else (the plugin, its relocated Curator, ZooKeeper)
 * from the jar: a missing or clashing class shows here and not in a production NodeManager.
 *
 * <p>The plugin classes are on this JVM's classpath too, so the test checks the NodeManager really
 * used the isolated loader (it holds a wrapper, not a {@link SpongeAuxService}), then talks to the
 * server the wrapped service started: descriptor in the local dir, metrics over JMX, and a chunk
 * stored and read back over TCP.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SpongeAuxServiceIsolatedClasspathTest {
  private static final String SERVICE = SpongeAuxService.SERVICE_NAME;
  private static final int POOL_CHUNKS = 8;
  private static final int CHUNK = 1 << 20;

  private static Path poolRoot;
  private static Path pluginJar;
  private static MiniMapReduceCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    pluginJar = shadedPluginJar();
    poolRoot =
        Path.of("/dev/shm", "levee-it-isolated-" + UUID.randomUUID().toString().substring(0, 8));
    cluster =
        MiniMapReduceCluster.builder()
            .nodeManagers(1)
            .dataNodes(1)
            .set(YarnConfiguration.NM_AUX_SERVICES, SERVICE)
            .set(
                String.format(YarnConfiguration.NM_AUX_SERVICE_FMT, SERVICE),
                SpongeAuxService.class.getName())
            .set(
                String.format(YarnConfiguration.NM_AUX_SERVICES_CLASSPATH, SERVICE),
                pluginJar.toString())
            .set(SpongeConf.LOCAL_POOL_DIR.name(), poolRoot.toString())
            .set(SpongeConf.LOCAL_POOL_SIZE.name(), POOL_CHUNKS + "m")
            .set(SpongeConf.CHUNK_SIZE.name(), "1m")
            .set(SpongeConf.PORT.name(), "0")
            // The explicit opt-out: this test is about class loading, and its client talks to the
            // server directly, without a job whose secret a relaying shuffle could pass on.
            .set(SpongeConf.AUTH_REQUIRED.name(), "false")
            .start();
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
    if (poolRoot != null) {
      FileUtil.fullyDelete(poolRoot.toFile());
    }
  }

  @Test
  void auxServiceFromItsOwnJarServesChunks() throws Exception {
    List<AuxiliaryService> services = cluster.auxServices(0);
    List<AuxiliaryService> plugins =
        services.stream().filter(s -> !(s instanceof ShuffleHandler)).toList();
    assertEquals(1, plugins.size(), "one aux service besides the shuffle: " + services);
    AuxiliaryService sponge = plugins.get(0);
    assertFalse(
        sponge instanceof SpongeAuxService,
        "the NodeManager must hold the isolated-loader wrapper, not a class from its own classpath: "
            + sponge);
    assertEquals("AuxiliaryServiceWithCustomClassLoader", sponge.getClass().getSimpleName());

    SpongeNodeDescriptor descriptor = awaitDescriptor();
    MBeanServer mbs = ManagementFactory.getPlatformMBeanServer();
    ObjectName metrics =
        new ObjectName("dev.levee.sponge:type=SpongeServer,port=" + descriptor.port());
    assertTrue(mbs.isRegistered(metrics), "sponge server metrics over JMX: " + metrics);
    assertEquals(POOL_CHUNKS, ((Number) mbs.getAttribute(metrics, "ChunksTotal")).intValue());

    SpongeServerAddress server = new SpongeServerAddress("127.0.0.1", descriptor.port(), null);
    byte[] payload = new byte[CHUNK];
    new Random(42).nextBytes(payload);
    try (SpongeClient client =
        new SpongeClient(
            ClientIdentity.ofCurrentProcess("application_1700000000000_0001", "127.0.0.1", null),
            () -> List.of(new ServerListEntry(server, POOL_CHUNKS, POOL_CHUNKS)),
            new ClientSettings(5_000, 30_000, CHUNK, 1))) {
      Optional<RemoteChunk> chunk = client.store(server, ByteBuffer.wrap(payload));
      assertTrue(chunk.isPresent(), "an empty " + POOL_CHUNKS + "-chunk pool must take one chunk");
      ByteBuffer back = ByteBuffer.allocate(CHUNK);
      client.read(chunk.get(), back);
      assertArrayEquals(
          payload, Arrays.copyOf(back.array(), back.position()), "chunk read back byte for byte");
      assertEquals(1, ((Number) mbs.getAttribute(metrics, "ChunksUsed")).intValue());
      client.free(chunk.get());
    }
    assertEquals(
        0,
        ((Number) mbs.getAttribute(metrics, "ChunksUsed")).intValue(),
        "freed chunk back in the pool");
  }

  private static SpongeNodeDescriptor awaitDescriptor() throws Exception {
    String dir =
        cluster.nodeManager(0).getConfig().getTrimmedStrings(YarnConfiguration.NM_LOCAL_DIRS)[0];
    Path file = SpongeNodeDescriptor.in(Path.of(dir));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.exists(file) && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertTrue(Files.exists(file), "the aux service writes its node descriptor at " + file);
    return SpongeNodeDescriptor.readFrom(file);
  }

  /**
   * The plugin jar as operators get it (shaded, Curator relocated): the build puts it on this
   * module's classpath as the spongefiles-hadoop artifact, from the reactor's target/ or the local
   * repository.
   */
  private static Path shadedPluginJar() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .map(Path::of)
        .filter(p -> p.getFileName().toString().matches("spongefiles-hadoop-[^/]*\\.jar"))
        .findFirst()
        .orElseThrow(
            () ->
                new AssertionError(
                    "spongefiles-hadoop jar not on the test classpath (run through Maven "
                        + "from the repository root, which packages it first): "
                        + System.getProperty("java.class.path")));
  }
}
