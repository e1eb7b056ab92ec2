package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeConfig;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a task finds its own NodeManager's sponge: the aux service scopes its pool per NodeManager
 * and publishes a descriptor into the NodeManager's local dirs; a task's application dir leads back
 * to it.
 */
@Timeout(60)
class SpongeNodeDescriptorTest {
  private Path shm;
  private Path localDirs;

  @BeforeEach
  void setUp() throws IOException {
    shm = TempDirs.newShmDir("descriptor");
    localDirs =
        Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "nm-local");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(shm);
    TempDirs.deleteRecursively(localDirs);
  }

  @Test
  void twoNodeManagersOnOneHostWithOneYarnSiteGetTheirOwnPoolPortAndDescriptor()
      throws IOException {
    Configuration yarnSite = TestNodes.conf(shm, 8);
    SpongeAuxService a = nodeManagerService(yarnSite, "nm-a");
    SpongeAuxService b = nodeManagerService(yarnSite, "nm-b");
    try {
      assertNotEquals(a.node().address().port(), b.node().address().port());
      assertNotEquals(a.node().config().poolDir(), b.node().config().poolDir());
      assertEquals(
          shm, a.node().config().poolDir().getParent(), "pools live under the configured pool dir");
      assertNotEquals(a.node().nodeName(), b.node().nodeName());

      Path appDir = localDirs.resolve("nm-b/usercache/alice/appcache/application_1_0001");
      Path nmDir = SpongeNodeDescriptor.nodeManagerLocalDirOf(appDir).orElseThrow();
      assertEquals(localDirs.resolve("nm-b"), nmDir);
      SpongeNodeDescriptor seen = SpongeNodeDescriptor.readFrom(SpongeNodeDescriptor.in(nmDir));
      assertEquals(b.node().address().port(), seen.port());
      assertEquals(b.node().config().poolDir(), seen.poolDir());
      assertEquals(List.of(SpongeNodeDescriptor.in(nmDir)), b.descriptorFiles());
      assertTrue(
          Files.getPosixFilePermissions(SpongeNodeDescriptor.in(nmDir))
              .contains(PosixFilePermission.OTHERS_READ),
          "tasks of any user can read the descriptor");

      // A task's configuration rewritten from the descriptor reaches b's server and b's pool, not
      // the job's values.
      Configuration job = new Configuration(false);
      job.set(SpongeConf.LOCAL_POOL_DIR.name(), "/nonexistent/job-value");
      job.set(SpongeConf.PORT.name(), "7788");
      Configuration task = seen.applyTo(job);
      assertEquals(b.node().config().poolDir(), SpongeConfig.from(task).poolDir());
      SpongeServerConfig server = SpongeServerConfig.from(task);
      try (SpongeClient client = TestNodes.client("application_1_0001", "127.0.0.1:1", List.of())) {
        SpongeClient.FreeSpace free =
            client.freeSpace(new SpongeServerAddress(server.advertisedHost(), server.port(), null));
        assertEquals(8, free.totalChunks());
        assertEquals(TestNodes.CHUNK, free.chunkSize());
      }
    } finally {
      a.stop();
      b.stop();
    }
    assertFalse(
        Files.exists(SpongeNodeDescriptor.in(localDirs.resolve("nm-a"))), "withdrawn on stop");
    assertFalse(
        Files.exists(SpongeNodeDescriptor.in(localDirs.resolve("nm-b"))), "withdrawn on stop");
  }

  @Test
  void theScopedPoolDirIsStableAcrossRestartsOfOneNodeManager() {
    List<Path> dirs = List.of(Path.of("/data/1/yarn"), Path.of("/data/2/yarn"));
    assertEquals(
        SpongeAuxService.poolNameFor(dirs), SpongeAuxService.poolNameFor(List.copyOf(dirs)));
    assertNotEquals(
        SpongeAuxService.poolNameFor(dirs),
        SpongeAuxService.poolNameFor(List.of(Path.of("/data/1/yarn"))));
  }

  @Test
  void onlyYarnApplicationDirsLeadToANodeManagerDir() {
    assertEquals(
        Optional.of(Path.of("/x/nm")),
        SpongeNodeDescriptor.nodeManagerLocalDirOf(
            Path.of("/x/nm/usercache/u/appcache/application_1_1")));
    assertEquals(
        Optional.empty(),
        SpongeNodeDescriptor.nodeManagerLocalDirOf(Path.of("/tmp/hadoop/mapred/local")));
    assertEquals(
        Optional.empty(), SpongeNodeDescriptor.nodeManagerLocalDirOf(Path.of("/u/appcache/app")));
  }

  @Test
  void aDescriptorWithAMissingValueNamesTheFileAndTheKey() throws IOException {
    Path file = localDirs.resolve("bad.properties");
    Files.writeString(
        file, "levee.sponge.node.descriptor.version=1\nlevee.sponge.local.pool.dir=/dev/shm/x\n");
    IOException e = assertThrows(IOException.class, () -> SpongeNodeDescriptor.readFrom(file));
    assertTrue(
        e.getMessage().contains(file.toString())
            && e.getMessage().contains("levee.sponge.local.pool.size"),
        e.getMessage());
  }

  @Test
  void aDescriptorLeftBehindByAServerThatDiedIsStale() throws Exception {
    SpongeAuxService aux = nodeManagerService(TestNodes.conf(shm, 8), "nm-a");
    Path leftBehind = localDirs.resolve("left-behind.properties");
    SpongeNodeDescriptor live;
    try {
      live = SpongeNodeDescriptor.readFrom(SpongeNodeDescriptor.in(localDirs.resolve("nm-a")));
      assertEquals(
          ProcessHandle.current().pid(), live.serverPid(), "the serving process is recorded");
      assertEquals(Optional.empty(), live.staleReason(2000), "a serving node is not stale");
      // What a NodeManager killed with SIGKILL leaves behind: its descriptor, never withdrawn.
      Files.copy(SpongeNodeDescriptor.in(localDirs.resolve("nm-a")), leftBehind);
    } finally {
      aux.stop();
    }
    String reason = SpongeNodeDescriptor.readFrom(leftBehind).staleReason(2000).orElseThrow();
    assertTrue(
        reason.contains("127.0.0.1:" + live.port()) && reason.contains("is still running"), reason);

    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    SpongeNodeDescriptor deadServer = withPortAndPid(live, live.port(), gone.pid());
    String why = deadServer.staleReason(2000).orElseThrow();
    assertTrue(why.contains("server process " + gone.pid() + " is gone"), why);
    try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      // A pid this task cannot see (another pid namespace) proves nothing while the port is served.
      assertEquals(
          Optional.empty(),
          withPortAndPid(live, listening.getLocalPort(), gone.pid()).staleReason(2000));
    }
    // Descriptors written before the pid was recorded still read, with the pid unknown.
    Path old = localDirs.resolve("old.properties");
    withPortAndPid(live, live.port(), 0).writeTo(old);
    assertFalse(Files.readString(old).contains("server.pid"));
    assertEquals(0, SpongeNodeDescriptor.readFrom(old).serverPid());
  }

  private static SpongeNodeDescriptor withPortAndPid(SpongeNodeDescriptor d, int port, long pid) {
    return new SpongeNodeDescriptor(
        d.poolDir(),
        d.poolSizeBytes(),
        d.chunkSize(),
        d.ownerHost(),
        d.advertisedHost(),
        port,
        d.rack(),
        d.zkQuorum(),
        d.zkRoot(),
        pid,
        d.authRequired());
  }

  private SpongeAuxService nodeManagerService(Configuration yarnSite, String nmName) {
    Configuration nm = new Configuration(yarnSite);
    nm.set(YarnConfiguration.NM_LOCAL_DIRS, localDirs.resolve(nmName).toString());
    SpongeAuxService aux = new SpongeAuxService();
    aux.init(nm);
    aux.start();
    return aux;
  }
}
