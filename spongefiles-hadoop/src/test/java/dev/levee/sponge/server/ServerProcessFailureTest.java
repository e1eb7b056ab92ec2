package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteChunkHandle;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.ChildJvm;
import dev.levee.sponge.testing.SpongeTestRig;
import dev.levee.sponge.testing.TempDirs;
import dev.levee.sponge.tier.StoredChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The standalone daemon as its own process, killed with SIGKILL while a client is reading its
 * chunks back.
 */
@Timeout(120)
class ServerProcessFailureTest {
  private static final int CHUNK = 1 << 20;
  private Path dir;
  private Path stderr;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("daemon");
    stderr = Path.of(System.getProperty("java.io.tmpdir"), "sponge-daemon.err");
    Files.createDirectories(stderr.getParent());
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(dir);
  }

  @Test
  void serverKilledMidReadFailsTheReadNamingChunkAndServer() throws Exception {
    try (ChildJvm daemon =
        ChildJvm.start(
            SpongeServerDaemon.class,
            stderr,
            "-D" + SpongeConf.LOCAL_POOL_DIR.name() + "=" + dir,
            "-D" + SpongeConf.LOCAL_POOL_SIZE.name() + "=32m",
            "-D" + SpongeConf.CHUNK_SIZE.name() + "=" + CHUNK,
            "-D" + SpongeConf.BIND_HOST.name() + "=127.0.0.1",
            "-D" + SpongeConf.ADVERTISED_HOST.name() + "=127.0.0.1",
            "-D" + SpongeConf.PORT.name() + "=0",
            "-D" + SpongeConf.AUTH_REQUIRED.name() + "=false")) {
      String ready = daemon.awaitLine("sponge-server listening");
      assertTrue(ready.endsWith("pid " + daemon.pid()), ready);
      SpongeServerAddress server = NodeNames.serverOf(ready.split(" ")[2], 1);
      try (SpongeClient client =
          new SpongeClient(
              ClientIdentity.ofCurrentProcess("application_1_0001", "127.0.0.1:1", null),
              new StaticServerList(List.of()),
              new ClientSettings(2000, 5000, CHUNK, 2))) {
        List<RemoteChunk> chunks = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
          chunks.add(client.store(server, TestNodes.randomBytes(CHUNK, i)).orElseThrow());
        }
        AtomicInteger readOk = new AtomicInteger();
        CountDownLatch reading = new CountDownLatch(3);
        CompletableFuture<IOException> failure =
            CompletableFuture.supplyAsync(
                () -> {
                  ByteBuffer buf = ByteBuffer.allocate(CHUNK);
                  for (int round = 0; ; round++) {
                    for (int i = 0; i < chunks.size(); i++) {
                      buf.clear();
                      try {
                        client.read(chunks.get(i), buf);
                      } catch (IOException e) {
                        return e;
                      }
                      if (!buf.flip().equals(TestNodes.randomBytes(CHUNK, i))) {
                        throw new AssertionError("chunk " + i + " came back different");
                      }
                      readOk.incrementAndGet();
                      reading.countDown();
                    }
                  }
                });
        assertTrue(reading.await(30, TimeUnit.SECONDS), "reads started");
        daemon.kill9();
        IOException e = failure.get(30, TimeUnit.SECONDS);
        String m = e.getMessage();
        assertTrue(
            m.matches(
                "cannot read chunk \\d+ \\(1048576 B\\) on sponge server 127\\.0\\.0\\.1:\\d+: .*"),
            m);
        assertTrue(m.contains(server.toString()), m);
        int failedIndex = Integer.parseInt(m.split(" ")[3]);
        assertTrue(
            chunks.stream().anyMatch(c -> ((RemoteChunkHandle) c).index() == failedIndex), m);
        assertTrue(readOk.get() >= 3, "reads succeeded before the kill: " + readOk.get());
        // The client stays usable: the next read fails the same clear way, it does not hang.
        IOException again =
            assertThrows(
                IOException.class, () -> client.read(chunks.get(0), ByteBuffer.allocate(CHUNK)));
        String firstChunk = "chunk " + ((RemoteChunkHandle) chunks.get(0)).index();
        assertTrue(again.getMessage().contains(firstChunk), again.getMessage());
      }
    }
  }

  private ChildJvm daemon(String name) throws IOException {
    Path pool = dir.resolve(name);
    return ChildJvm.start(
        SpongeServerDaemon.class,
        stderr.resolveSibling("sponge-daemon-" + name + ".err"),
        "-D" + SpongeConf.LOCAL_POOL_DIR.name() + "=" + pool,
        "-D" + SpongeConf.LOCAL_POOL_SIZE.name() + "=32m",
        "-D" + SpongeConf.CHUNK_SIZE.name() + "=" + CHUNK,
        "-D" + SpongeConf.BIND_HOST.name() + "=127.0.0.1",
        "-D" + SpongeConf.ADVERTISED_HOST.name() + "=127.0.0.1",
        "-D" + SpongeConf.PORT.name() + "=0",
        "-D" + SpongeConf.AUTH_REQUIRED.name() + "=false");
  }

  private static SpongeServerAddress listening(ChildJvm daemon) throws IOException {
    return NodeNames.serverOf(daemon.awaitLine("sponge-server listening").split(" ")[2], 1);
  }

  /**
   * Issue 16, D3: with two copies of each remote chunk, SIGKILL of one server process costs the
   * reader a failover per chunk, not the task. Real processes, real TCP.
   */
  @Test
  void withTwoCopiesAKilledServerCostsAFailoverNotTheFile() throws Exception {
    try (ChildJvm first = daemon("first");
        ChildJvm second = daemon("second");
        SpongeTestRig rig = new SpongeTestRig(CHUNK, 1)) {
      SpongeServerAddress a = listening(first);
      SpongeServerAddress b = listening(second);
      rig.conf.set(SpongeConf.LOCAL_ENABLED.name(), "false");
      rig.conf.set(SpongeConf.REMOTE_REPLICAS.name(), "2");
      try (SpongeClient client =
              new SpongeClient(
                  ClientIdentity.ofCurrentProcess("application_1_0002", "127.0.0.1:1", null),
                  new StaticServerList(
                      List.of(new ServerListEntry(a, 32, 32), new ServerListEntry(b, 32, 32))),
                  new ClientSettings(2000, 5000, CHUNK, 2));
          SpongeFileSystem fs = SpongeFileSystem.open(rig.conf, client)) {
        byte[] data = SpongeTestRig.randomBytes(8 * CHUNK + 5, 16);
        SpongeFile f = fs.create("replicated");
        SpongeTestRig.write(f, data);
        assertTrue(
            f.chunks().stream()
                .allMatch(c -> c instanceof StoredChunk.Remote r && r.copies().size() == 2),
            f.chunks().toString());
        first.kill9();
        assertArrayEquals(data, SpongeTestRig.readAll(f));
        assertTrue(fs.metrics().replicaFailovers() >= 1, fs.metrics().toString());
        f.delete();
      }
    }
  }
}
