package dev.levee.sponge.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.testing.TempDirs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SharedMemoryPoolTest {
  private static final int CHUNK = 64 * 1024;
  private Path dir;

  @BeforeEach
  void setUp() throws IOException {
    dir = TempDirs.newShmDir("pool");
  }

  @AfterEach
  void tearDown() {
    TempDirs.deleteRecursively(dir);
  }

  @Test
  void allocatesEveryChunkOnceThenReportsFull() throws IOException {
    ChunkOwner me = ChunkOwner.currentProcess("h1");
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, 10L * CHUNK + 123, CHUNK)) {
      assertEquals(10, pool.chunkCount());
      assertEquals(CHUNK, pool.chunkSize());
      Set<Integer> got = new HashSet<>();
      for (int i = 0; i < 10; i++) {
        assertTrue(got.add(pool.allocate(me).orElseThrow()));
      }
      assertEquals(0, pool.freeChunks());
      assertTrue(pool.allocate(me).isEmpty());
      for (int c : got) {
        assertEquals(me, pool.ownerOf(c));
      }
      pool.free(3, me);
      assertNull(pool.ownerOf(3));
      assertEquals(1, pool.freeChunks());
      assertEquals(OptionalInt.of(3), pool.allocate(me));
    }
  }

  @Test
  void freeRefusesAnotherOwnerOrAFreeChunk() throws IOException {
    ChunkOwner me = ChunkOwner.currentProcess("h1");
    ChunkOwner other = new ChunkOwner(me.pid() + 1, "h1");
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, 4L * CHUNK, CHUNK)) {
      int c = pool.allocate(me).orElseThrow();
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> pool.free(c, other));
      assertTrue(e.getMessage().contains("owned by " + me), e.getMessage());
      assertEquals(me, pool.ownerOf(c));
      pool.free(c, me);
      e = assertThrows(IllegalStateException.class, () -> pool.free(c, me));
      assertTrue(e.getMessage().contains("already free"), e.getMessage());
      assertEquals(4, pool.freeChunks());
    }
  }

  @Test
  void dataWrittenByOneAttachmentIsReadByAnother() throws IOException {
    ChunkOwner me = ChunkOwner.currentProcess("h1");
    byte[] data = new byte[CHUNK];
    new Random(7).nextBytes(data);
    try (SharedMemoryPool a = SharedMemoryPool.open(dir, 8L * CHUNK, CHUNK);
        SharedMemoryPool b = SharedMemoryPool.open(dir, 8L * CHUNK, CHUNK)) {
      int c = a.allocate(me).orElseThrow();
      a.write(c, ByteBuffer.wrap(data));
      assertEquals(me, b.ownerOf(c));
      assertEquals(7, b.freeChunks());
      ByteBuffer back = ByteBuffer.allocateDirect(CHUNK);
      b.read(c, CHUNK, back);
      byte[] got = new byte[CHUNK];
      back.flip().get(got);
      assertArrayEquals(data, got);
      ByteBuffer part = ByteBuffer.allocate(100);
      b.read(c, 1000, 100, part);
      for (int i = 0; i < 100; i++) {
        assertEquals(data[1000 + i], part.get(i));
      }
      byte[] into = new byte[120];
      b.read(c, CHUNK - 100, into, 20, 100);
      assertArrayEquals(
          java.util.Arrays.copyOfRange(data, CHUNK - 100, CHUNK),
          java.util.Arrays.copyOfRange(into, 20, 120));
      assertEquals(0, into[19], "bytes before the destination offset are untouched");
      assertThrows(IndexOutOfBoundsException.class, () -> b.read(c, 0, into, 100, 21));
      assertThrows(IllegalArgumentException.class, () -> b.read(c, CHUNK - 10, into, 0, 11));
      assertThrows(
          IllegalArgumentException.class, () -> a.write(c, ByteBuffer.allocate(CHUNK + 1)));
      assertThrows(IndexOutOfBoundsException.class, () -> a.read(8, 1, ByteBuffer.allocate(1)));
    }
  }

  @Test
  void attachingWithOtherGeometryFailsNamingBoth() throws IOException {
    SharedMemoryPool.open(dir, 8L * CHUNK, CHUNK).close();
    IOException e =
        assertThrows(IOException.class, () -> SharedMemoryPool.open(dir, 8L * CHUNK, CHUNK * 2));
    assertTrue(e.getMessage().contains("holds 8 chunks of " + CHUNK + " bytes"), e.getMessage());
    assertTrue(e.getMessage().contains("configured for 4 chunks of " + 2 * CHUNK), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SharedMemoryPool.open(dir, 100, CHUNK));
    assertThrows(IllegalArgumentException.class, () -> SharedMemoryPool.open(dir, 1L << 20, 100));
  }

  @Test
  void refusesAFileThatIsNotAPool() throws IOException {
    Files.write(dir.resolve(SharedMemoryPool.META_FILE), new byte[8192]);
    ByteBuffer junk = ByteBuffer.allocate(8).putLong(0, 42L);
    try (var ch =
        java.nio.channels.FileChannel.open(
            dir.resolve(SharedMemoryPool.META_FILE), java.nio.file.StandardOpenOption.WRITE)) {
      ch.write(junk, 0);
    }
    IOException e =
        assertThrows(IOException.class, () -> SharedMemoryPool.open(dir, 8L * CHUNK, CHUNK));
    assertTrue(e.getMessage().contains("not a Levee sponge pool"), e.getMessage());
  }

  @Test
  void poolLargerThanOneGibSpansSegmentsOfAtMostOneGib() throws IOException {
    int chunk = 64 << 20;
    // 1.5 GiB: the pool allocates all its memory when it is made (so it never faults later).
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, 24L * chunk, chunk)) {
      assertEquals(24, pool.chunkCount());
      assertEquals(1L << 30, Files.size(dir.resolve("segment-00000")));
      assertEquals(8L * chunk, Files.size(dir.resolve("segment-00001")));
      ChunkOwner me = ChunkOwner.currentProcess("h");
      List<Integer> all = new ArrayList<>();
      for (OptionalInt c = pool.allocate(me); c.isPresent(); c = pool.allocate(me)) {
        all.add(c.getAsInt());
      }
      assertEquals(24, all.size());
      ByteBuffer small = ByteBuffer.wrap(new byte[] {1, 2, 3});
      pool.write(17, small);
      ByteBuffer back = ByteBuffer.allocate(3);
      pool.read(17, 3, back);
      assertArrayEquals(new byte[] {1, 2, 3}, back.array());
    }
  }

  @Test
  void threadsNeverShareAChunk() throws Exception {
    int threads = 4;
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, 32L * CHUNK, CHUNK)) {
      ChunkOwner me = ChunkOwner.currentProcess("h");
      Set<Integer> inUse = ConcurrentHashMap.newKeySet();
      ExecutorService pool4 = Executors.newFixedThreadPool(threads);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        results.add(
            pool4.submit(
                () -> {
                  go.await();
                  int clashes = 0;
                  for (int i = 0; i < 20_000; i++) {
                    OptionalInt c = pool.allocate(me);
                    if (c.isEmpty()) {
                      continue;
                    }
                    if (!inUse.add(c.getAsInt())) {
                      clashes++;
                    }
                    inUse.remove(c.getAsInt());
                    pool.free(c.getAsInt(), me);
                  }
                  return clashes;
                }));
      }
      go.countDown();
      for (Future<Integer> f : results) {
        assertEquals(0, f.get());
      }
      pool4.shutdown();
      assertEquals(32, pool.freeChunks());
    }
  }

  @Test
  void reclaimFreesOnlyChunksOfDeadOwners() throws IOException {
    ChunkOwner live = ChunkOwner.currentProcess("h");
    ChunkOwner dead = new ChunkOwner(live.pid() + 100_000, "h");
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, 8L * CHUNK, CHUNK)) {
      int a = pool.allocate(live).orElseThrow();
      int b = pool.allocate(dead).orElseThrow();
      int c = pool.allocate(dead).orElseThrow();
      assertEquals(2, pool.reclaim(dead::equals));
      assertNull(pool.ownerOf(b));
      assertNull(pool.ownerOf(c));
      assertEquals(live, pool.ownerOf(a));
      assertEquals(7, pool.freeChunks());
      assertEquals(0, pool.reclaim(o -> false));
    }
  }

  @Test
  void ownerHostIsLimitedAndRoundTrips() throws IOException {
    String longest = "h".repeat(ChunkOwner.MAX_HOST_BYTES);
    assertThrows(IllegalArgumentException.class, () -> new ChunkOwner(1, longest + "x"));
    assertThrows(IllegalArgumentException.class, () -> new ChunkOwner(0, "h"));
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, 2L * CHUNK, CHUNK)) {
      ChunkOwner o = new ChunkOwner(77, longest);
      int c = pool.allocate(o).orElseThrow();
      assertEquals(o, pool.ownerOf(c));
      ChunkOwner utf = new ChunkOwner(78, "nœud-7.rack-é");
      int d = pool.allocate(utf).orElseThrow();
      assertEquals(utf, pool.ownerOf(d));
    }
  }
}
