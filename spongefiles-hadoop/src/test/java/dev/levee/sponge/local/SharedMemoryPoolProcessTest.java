package dev.levee.sponge.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.testing.ChildJvm;
import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pool shared by real separate JVMs: concurrent allocation, kill -9 of owners and of the lock
 * holder.
 */
class SharedMemoryPoolProcessTest {
  private static final int CHUNK = 4096;
  private static final long CAPACITY = 300L * CHUNK;
  private Path dir;
  private Path stderr;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("proc");
    stderr = Path.of(System.getProperty("java.io.tmpdir"), "pool-children.err");
    Files.createDirectories(stderr.getParent());
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(dir);
  }

  private ChildJvm child(String mode, String... extra) throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(mode, dir.toString(), Long.toString(CAPACITY), Integer.toString(CHUNK)));
    args.addAll(Arrays.asList(extra));
    return ChildJvm.start(PoolChild.class, stderr, args.toArray(String[]::new));
  }

  @Test
  @Timeout(180)
  void concurrentProcessesNeverDoubleAllocate() throws Exception {
    Path go = dir.resolve("go");
    List<ChildJvm> children = new ArrayList<>();
    try {
      for (int i = 0; i < 4; i++) {
        children.add(child("churn-then-fill", go.toString(), "20000"));
      }
      // Let every child attach (pool creation races too) before starting them together.
      Thread.sleep(1500);
      Files.createFile(go);
      Map<Long, List<Integer>> byPid = new HashMap<>();
      for (ChildJvm c : children) {
        assertEquals(
            "CORRUPT 0", c.awaitLine("CORRUPT"), "child " + c.pid() + " saw a foreign write");
        String chunks = c.awaitLine("CHUNKS").substring("CHUNKS".length()).trim();
        List<Integer> mine = new ArrayList<>();
        for (String s : chunks.isEmpty() ? new String[0] : chunks.split(",")) {
          mine.add(Integer.parseInt(s));
        }
        byPid.put(c.pid(), mine);
        assertEquals(0, c.waitFor(60));
      }
      Set<Integer> seen = new HashSet<>();
      try (SharedMemoryPool pool = SharedMemoryPool.open(dir, CAPACITY, CHUNK)) {
        assertEquals(0, pool.freeChunks());
        for (Map.Entry<Long, List<Integer>> e : byPid.entrySet()) {
          for (int chunk : e.getValue()) {
            assertTrue(seen.add(chunk), "chunk " + chunk + " handed out twice");
            assertEquals(new ChunkOwner(e.getKey(), "child-host"), pool.ownerOf(chunk));
            ByteBuffer sig = ByteBuffer.allocate(16);
            pool.read(chunk, 16, sig);
            assertEquals(e.getKey(), sig.getLong(0), "data in chunk " + chunk);
            assertEquals(chunk, sig.getLong(8));
          }
        }
        assertEquals(pool.chunkCount(), seen.size());
      }
    } finally {
      for (ChildJvm c : children) {
        c.close();
      }
    }
  }

  @Test
  @Timeout(120)
  void killingAnOwnerThenReclaimFreesExactlyItsChunks() throws Exception {
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, CAPACITY, CHUNK);
        ChildJvm victim = child("hold", "7");
        ChildJvm survivor = child("hold", "5")) {
      ChunkOwner me = ChunkOwner.currentProcess("child-host");
      int mine = pool.allocate(me).orElseThrow();
      Set<Integer> victimChunks = parse(victim.awaitLine("HELD"));
      Set<Integer> survivorChunks = parse(survivor.awaitLine("HELD"));
      assertEquals(7, victimChunks.size());
      assertEquals(0, pool.reclaim(o -> !o.isAliveOnThisHost()), "nobody is dead yet");

      victim.kill9();
      int freeBefore = pool.freeChunks();
      assertEquals(7, pool.reclaim(o -> !o.isAliveOnThisHost()));
      assertEquals(freeBefore + 7, pool.freeChunks());
      for (int c : victimChunks) {
        assertNull(pool.ownerOf(c));
      }
      for (int c : survivorChunks) {
        assertEquals(new ChunkOwner(survivor.pid(), "child-host"), pool.ownerOf(c));
      }
      assertEquals(me, pool.ownerOf(mine));
    }
  }

  @Test
  @Timeout(120)
  void lockHolderKilledWhileHoldingDoesNotWedgeThePool() throws Exception {
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, CAPACITY, CHUNK);
        ChildJvm holder = child("lock-and-hold")) {
      holder.awaitLine("LOCKED");
      assertEquals(holder.pid(), pool.lockHolderPid());
      ChunkOwner me = ChunkOwner.currentProcess("h");
      // While the holder lives, allocation waits.
      CompletableFuture<Integer> blocked =
          CompletableFuture.supplyAsync(() -> pool.allocate(me).orElseThrow());
      Thread.sleep(300);
      assertTrue(!blocked.isDone(), "allocation must wait for a live holder");
      holder.kill9();
      long start = System.nanoTime();
      int chunk = blocked.get(10, TimeUnit.SECONDS);
      assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 5000);
      assertEquals(me, pool.ownerOf(chunk));
      assertEquals(1, pool.brokenLocks());
      assertEquals(pool.chunkCount() - 1, pool.freeChunks());
    }
  }

  @Test
  @Timeout(120)
  void holderKilledMidAllocationLeavesAConsistentPool() throws Exception {
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, CAPACITY, CHUNK);
        ChildJvm dying = child("die-mid-allocate", "5")) {
      dying.awaitLine("HALFWAY");
      assertEquals(
          pool.chunkCount(), pool.freeChunks(), "counter not yet updated by the dying holder");
      dying.kill9();
      ChunkOwner me = ChunkOwner.currentProcess("h");
      int chunk = pool.allocate(me).orElseThrow();
      assertTrue(chunk != 5, "the half-allocated entry belongs to the dead child");
      assertEquals(
          pool.chunkCount() - 2, pool.freeChunks(), "counter recounted after breaking the lock");
      assertEquals(new ChunkOwner(dying.pid(), "child-host"), pool.ownerOf(5));
      assertEquals(1, pool.reclaim(o -> !o.isAliveOnThisHost()));
      assertEquals(pool.chunkCount() - 1, pool.freeChunks());
    }
  }

  private static Set<Integer> parse(String line) {
    Set<Integer> s = new HashSet<>();
    for (String x : line.substring(line.indexOf(' ') + 1).split(",")) {
      s.add(Integer.parseInt(x.trim()));
    }
    return s;
  }
}
