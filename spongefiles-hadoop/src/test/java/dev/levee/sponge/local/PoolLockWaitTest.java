package dev.levee.sponge.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.testing.ChildJvm;
import dev.levee.sponge.testing.TempDirs;
import dev.levee.sponge.tier.LocalMemoryTier;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 13 item 13b: a process stopped (SIGSTOP) while holding the pool's lock is alive, so its
 * lock is never broken; it must cost other processes a bounded wait and a fallback to the next
 * tier, not freeze allocation on the whole node; and one wait per process, not one per chunk.
 */
class PoolLockWaitTest {
  private static final int CHUNK = 64 * 1024;
  private static final long CAPACITY = 8L * CHUNK;
  private Path dir;
  private Path stderr;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("lockwait");
    stderr = Path.of(System.getProperty("java.io.tmpdir"), "sponge-lockwait-children.err");
    Files.createDirectories(stderr.getParent());
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(dir);
  }

  private static void signal(String sig, long pid) throws Exception {
    assertEquals(0, new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).start().waitFor());
  }

  @Test
  // before the bound, the first allocation below waited forever
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aStoppedLockHolderCostsABoundedWaitAndTheNextTier() throws Exception {
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, CAPACITY, CHUNK);
        ChildJvm holder =
            ChildJvm.start(
                PoolChild.class,
                stderr,
                "lock-and-hold",
                dir.toString(),
                Long.toString(CAPACITY),
                Integer.toString(CHUNK))) {
      holder.awaitLine("LOCKED");
      signal("STOP", holder.pid());
      pool.lockWait(300);
      ChunkOwner me = ChunkOwner.currentProcess("h");
      LocalMemoryTier tier = new LocalMemoryTier(pool, me);
      assertTrue(tier.store(ByteBuffer.allocate(1000)).isEmpty(), "no room here: next tier");
      assertEquals(1, pool.lockTimeouts());
      // The holder is known to be stuck: later chunks go to the next tier without a wait each
      // (a 1 GiB spill would otherwise wait 5 s for each of its chunks).
      for (int i = 0; i < 10; i++) {
        assertTrue(tier.store(ByteBuffer.allocate(1000)).isEmpty(), "no room here: next tier");
      }
      assertEquals(1, pool.lockTimeouts(), "every chunk waited for the stopped holder");
      assertEquals(10, pool.lockSkips());
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.ownerOf(0));
      assertTrue(e.getMessage().contains("locked by pid " + holder.pid()), e.getMessage());
      signal("CONT", holder.pid());
      holder.kill9();
      // a dead holder's lock is taken over as before
      assertTrue(pool.allocate(me).isPresent());
    }
  }
}
