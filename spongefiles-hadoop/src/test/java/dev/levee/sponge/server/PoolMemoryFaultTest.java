package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.testing.TempDirs;
import dev.levee.sponge.tier.LocalMemoryTier;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 13 item 8: SIGBUS on pool memory must never be a dead task, connection thread or GC. The
 * pool's pages are allocated when it is created, so a tmpfs filled later cannot fault them; what
 * remains is a segment cut short under its mapping (tested here: it faults exactly like a full
 * tmpfs), which must become "no room here, next tier" with the chunk and quota given back.
 */
@Timeout(60)
class PoolMemoryFaultTest {
  private static final int CHUNKS = 4;
  private Path dir;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("sigbus");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(dir);
  }

  private void truncate(String file) throws IOException {
    try (FileChannel ch = FileChannel.open(dir.resolve(file), StandardOpenOption.WRITE)) {
      ch.truncate(0);
    }
  }

  @Test
  void theLocalTierSaysNoRoomAndGivesTheChunkBack() throws IOException {
    try (SharedMemoryPool pool =
        SharedMemoryPool.open(dir, (long) CHUNKS * TestNodes.CHUNK, TestNodes.CHUNK)) {
      LocalMemoryTier tier = new LocalMemoryTier(pool, ChunkOwner.currentProcess("h"));
      truncate("segment-00000");
      assertTrue(tier.store(TestNodes.randomBytes(10_000, 1)).isEmpty(), "next tier, no error");
      assertTrue(tier.allocate().isEmpty(), "the in-place fill path too");
      assertEquals(CHUNKS, pool.freeChunks(), "every chunk was given back");
      assertTrue(pool.damage().orElseThrow().contains("was cut to 0 bytes"), pool.damage().get());
    }
  }

  @Test
  void theServerAnswersNoRoomGivesTheQuotaBackAndKeepsServing() throws IOException {
    try (SpongeService node =
            SpongeService.start(SpongeServerConfig.from(TestNodes.conf(dir, CHUNKS)));
        SpongeClient client =
            TestNodes.client("application_1_0001", "127.0.0.1:1", List.of(node.address()))) {
      truncate("segment-00000");
      for (int i = 0; i < 3; i++) {
        assertTrue(
            client.store(node.address(), TestNodes.randomBytes(10_000, i)).isEmpty(),
            "NO_ROOM, not a dropped connection");
      }
      assertEquals(CHUNKS, node.metrics().getChunksFree(), "no chunk leaked");
      assertEquals(0, node.metrics().getRemoteChunksHeld(), "no quota leaked");
      assertEquals(CHUNKS, client.freeSpace(node.address()).totalChunks(), "still serving");
    }
  }
}
