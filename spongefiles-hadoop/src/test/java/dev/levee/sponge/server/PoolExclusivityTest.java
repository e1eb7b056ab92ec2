package dev.levee.sponge.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.client.RemoteChunk;
import dev.levee.sponge.client.RemoteChunkHandle;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 13 item 3: a valid capability must never return another tenant's bytes. A server holds its
 * pool exclusively, a pool still mapped is never re-created, and a READ checks the pool's owner
 * entry before it answers.
 */
@Timeout(60)
class PoolExclusivityTest {
  private static final int CHUNKS = 8;
  private Path dir;
  private SpongeService node;
  private SpongeClient tenantA;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("exclusive");
    node = SpongeService.start(SpongeServerConfig.from(TestNodes.conf(dir, CHUNKS)));
    tenantA = TestNodes.client("application_1_0001", "127.0.0.1:1", List.of(node.address()));
  }

  @AfterEach
  void tearDown() {
    tenantA.close();
    node.close();
    TempDirs.deleteRecursively(dir);
  }

  @Test
  void aSecondServerOnTheSamePoolIsRefusedAndFreesNothing() throws IOException {
    ByteBuffer secret = TestNodes.randomBytes(5000, 1);
    RemoteChunk chunk = tenantA.store(node.address(), secret.duplicate()).orElseThrow();
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                SpongeService.start(SpongeServerConfig.from(TestNodes.conf(dir, CHUNKS))).close());
    assertTrue(e.getMessage().contains("already served by another sponge server"), e.getMessage());
    assertEquals(CHUNKS - 1, node.metrics().getChunksFree(), "the first server's chunk is held");
    assertEquals(secret, read(chunk));
  }

  @Test
  void aPoolWhoseMetadataWasDeletedUnderItsServerIsNeverRecreated() throws IOException {
    ByteBuffer secret = TestNodes.randomBytes(5000, 2);
    RemoteChunk chunk = tenantA.store(node.address(), secret.duplicate()).orElseThrow();
    Files.delete(dir.resolve("pool.meta"));

    IOException e =
        assertThrows(
            IOException.class,
            () -> SharedMemoryPool.open(dir, (long) CHUNKS * TestNodes.CHUNK, TestNodes.CHUNK));
    assertTrue(e.getMessage().contains("refusing to re-create"), e.getMessage());
    node.collectGarbage(); // notices the damage: allocates nothing more from this pool
    assertTrue(
        tenantA.store(node.address(), TestNodes.randomBytes(10, 3)).isEmpty(),
        "a damaged pool answers 'no room' and the writer goes to its next tier");
    assertEquals(secret, read(chunk), "the chunk already held still reads back its own bytes");
  }

  @Test
  void aReadChecksThePoolOwnerNotOnlyTheServersGrant() throws IOException {
    ByteBuffer secret = TestNodes.randomBytes(5000, 4);
    RemoteChunkHandle chunk =
        (RemoteChunkHandle) tenantA.store(node.address(), secret.duplicate()).orElseThrow();
    // Someone else sharing the pool frees the chunk behind the server's back and takes it for
    // another owner, writing that tenant's bytes into it.
    try (SharedMemoryPool shared =
        SharedMemoryPool.open(dir, (long) CHUNKS * TestNodes.CHUNK, TestNodes.CHUNK)) {
      ChunkOwner a = shared.ownerOf(chunk.index());
      shared.free(chunk.index(), a);
      ChunkOwner b = new ChunkOwner(a.pid() + 1, "127.0.0.1:2");
      // next-fit allocation: take every free chunk, so the freed one is among them
      while (shared.allocate(b).isPresent()) {}
      assertEquals(b, shared.ownerOf(chunk.index()));
      shared.write(chunk.index(), TestNodes.randomBytes(5000, 5));
    }
    IOException refused = assertThrows(IOException.class, () -> read(chunk));
    assertTrue(refused.getMessage().contains("NO_SUCH_CHUNK"), refused.getMessage());
  }

  private ByteBuffer read(RemoteChunk chunk) throws IOException {
    ByteBuffer back = ByteBuffer.allocate(TestNodes.CHUNK);
    tenantA.read(chunk, back);
    return back.flip();
  }
}
