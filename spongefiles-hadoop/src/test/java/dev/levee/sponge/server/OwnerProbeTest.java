package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 13 item 7: an owner's node name is client input. The GC contacts only registered sponge
 * servers, and probes them in parallel with a short timeout, so silent nodes no longer hold up the
 * reclamation of a dead local owner's chunks.
 */
class OwnerProbeTest {
  private static final int CHUNKS = 8;

  /** An owner id that is neither a pid nor anyone's lease: a dead local owner. */
  private static final long DEAD_ID = 4_000_000_001L;

  private Path dir;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("probe");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(dir);
  }

  private static ServerSocket silent() throws IOException {
    // Listens (connects complete in the kernel's backlog) but never accepts or answers.
    return new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
  }

  private static String nodeOf(ServerSocket s) {
    return "127.0.0.1:" + s.getLocalPort();
  }

  private SharedMemoryPool attach() throws IOException {
    return SharedMemoryPool.open(dir, (long) CHUNKS * TestNodes.CHUNK, TestNodes.CHUNK);
  }

  @Test
  // serial probes with 30 s timeouts, as before, took a minute for two silent nodes
  @Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void twoSilentRegisteredOwnerNodesDoNotHoldUpReclamation() throws IOException {
    try (ServerSocket s1 = silent();
        ServerSocket s2 = silent()) {
      Configuration c = TestNodes.conf(dir, CHUNKS);
      c.set(SpongeConf.GC_OWNER_NODES.name(), nodeOf(s1) + "," + nodeOf(s2));
      c.set(SpongeConf.CLIENT_READ_TIMEOUT_MS.name(), "30000");
      c.set(SpongeConf.CLIENT_CONNECT_TIMEOUT_MS.name(), "30000");
      c.set(SpongeConf.GC_PROBE_TIMEOUT_MS.name(), "300");
      try (SpongeService node = SpongeService.start(SpongeServerConfig.from(c));
          SharedMemoryPool pool = attach()) {
        int dead = pool.allocate(new ChunkOwner(DEAD_ID, TestNodes.OWNER_HOST)).orElseThrow();
        int r1 = pool.allocate(new ChunkOwner(11, nodeOf(s1))).orElseThrow();
        int r2 = pool.allocate(new ChunkOwner(12, nodeOf(s2))).orElseThrow();
        assertEquals(1, node.collectGarbage(), "the dead local owner's chunk, in this round");
        assertNull(pool.ownerOf(dead));
        assertEquals(nodeOf(s1), pool.ownerOf(r1).host(), "silent nodes' owners: grace period");
        assertEquals(nodeOf(s2), pool.ownerOf(r2).host());
      }
    }
  }

  @Test
  @Timeout(60)
  void anOwnerNodeThatIsNotARegisteredServerIsNeverContacted() throws IOException {
    try (ServerSocket trap = silent();
        SpongeService node =
            SpongeService.start(SpongeServerConfig.from(TestNodes.conf(dir, CHUNKS)));
        SharedMemoryPool pool = attach()) {
      int c = pool.allocate(new ChunkOwner(13, nodeOf(trap))).orElseThrow();
      assertEquals(0, node.collectGarbage(), "kept for the unreachable grace period");
      assertEquals(nodeOf(trap), pool.ownerOf(c).host());
      trap.setSoTimeout(200);
      // A connection attempt would wait in the backlog; accept finds none.
      assertThrows(SocketTimeoutException.class, trap::accept, "the GC connected to " + trap);
    }
  }
}
