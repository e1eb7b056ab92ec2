package dev.levee.sponge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.testing.Await;
import dev.levee.sponge.testing.PoolBackedRemoteMemory;
import dev.levee.sponge.testing.SpongeTestRig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Background writes (bounded, errors surfacing), prefetching reads, lost servers, delete and close.
 */
class SpongeFileAsyncTest {
  private static final int CHUNK = 64 * 1024;

  @Test
  @Timeout(60)
  void writerBlocksOnceMaxInFlightChunksAreHandedOff() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      rig.conf.set(SpongeConf.LOCAL_ENABLED.name(), "false");
      rig.conf.set(SpongeConf.WRITE_MAX_IN_FLIGHT.name(), "2");
      remote.addServer("a", rig.shm.resolve("a"), 16, CHUNK);
      try (SpongeFileSystem fs = rig.open(remote)) {
        SpongeFile f = fs.create("backpressure");
        byte[] data = SpongeTestRig.randomBytes(6 * CHUNK, 4);
        CountDownLatch gate = remote.holdStores();
        OutputStream out = f.output();
        out.write(
            data, 0, 2 * CHUNK); // two hand-offs: returns at once although nothing is stored yet
        assertTrue(waitFor(() -> remote.storeCalls() == 1), "the lane started the first store");
        CompletableFuture<Void> third =
            CompletableFuture.runAsync(
                () -> {
                  try {
                    out.write(data, 2 * CHUNK, CHUNK);
                  } catch (IOException e) {
                    throw new RuntimeException(e);
                  }
                });
        Thread.sleep(300);
        assertFalse(third.isDone(), "a third full chunk must wait: two are already in flight");
        gate.countDown();
        third.get(10, TimeUnit.SECONDS);
        out.write(data, 3 * CHUNK, 3 * CHUNK);
        out.close();
        assertEquals(6, remote.storeCalls());
        assertArrayEquals(data, SpongeTestRig.readAll(f));
      }
    }
  }

  @Test
  @Timeout(60)
  void aFailedBackgroundWriteSurfacesOnCloseAndTheFileCanStillBeDeleted() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      rig.conf.set(SpongeConf.DISK_ENABLED.name(), "false");
      rig.conf.set(SpongeConf.DFS_ENABLED.name(), "false");
      SpongeServerAddress a = remote.addServer("a", rig.shm.resolve("a"), 16, CHUNK);
      remote.lose(a);
      try (SpongeFileSystem fs = rig.open(remote)) {
        SpongeFile f = fs.create("doomed");
        OutputStream out = f.output();
        out.write(new byte[CHUNK]); // local
        // The remote store fails in the background and no tier is left: the error surfaces on this
        // write if the lane
        // already finished, else on close.
        IOException e =
            assertThrows(
                IOException.class,
                () -> {
                  out.write(new byte[CHUNK]);
                  out.close();
                });
        assertTrue(e.getMessage().contains("no tier could store chunk 1"), e.getMessage());
        assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
        assertThrows(IllegalStateException.class, f::input);
        f.delete();
        assertEquals(1, fs.localPool().orElseThrow().freeChunks());
        assertEquals(1, fs.metrics().errors(Tier.REMOTE_MEMORY));
        assertEquals(1, fs.metrics().remoteServerErrors());
      }
    }
  }

  @Test
  @Timeout(60)
  void aLaterWriteReportsAnEarlierBackgroundFailure() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1)) {
      rig.conf.set(SpongeConf.LOCAL_ENABLED.name(), "false");
      rig.conf.set(SpongeConf.DFS_ENABLED.name(), "false");
      java.nio.file.Files.createDirectories(rig.work);
      java.nio.file.Files.writeString(rig.diskDir, "not a dir");
      try (SpongeFileSystem fs = rig.open(null)) {
        SpongeFile f = fs.create("doomed");
        OutputStream out = f.output();
        IOException e =
            assertThrows(
                IOException.class,
                () -> {
                  for (int i = 0; i < 100; i++) {
                    out.write(new byte[CHUNK]);
                    Thread.sleep(10);
                  }
                });
        assertTrue(e.getMessage().contains("a chunk write failed"), e.getMessage());
        assertThrows(IOException.class, out::close);
        f.delete();
      }
    }
  }

  @Test
  @Timeout(60)
  void aLostServerFailsTheReadNamingTheChunkAndTheServer() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      SpongeServerAddress a = remote.addServer("node-a", rig.shm.resolve("a"), 8, CHUNK);
      try (SpongeFileSystem fs = rig.open(remote)) {
        SpongeFile f = fs.create("lost");
        byte[] data = SpongeTestRig.randomBytes(3 * CHUNK, 5);
        SpongeTestRig.write(f, data);
        remote.lose(a);
        try (InputStream in = f.input()) {
          byte[] buf = new byte[CHUNK];
          assertEquals(CHUNK, in.readNBytes(buf, 0, CHUNK), "chunk 0 is local and still readable");
          IOException e = assertThrows(IOException.class, () -> in.read(buf));
          assertTrue(e.getMessage().contains("chunk 1 of 3"), e.getMessage());
          assertTrue(e.getMessage().contains(a.toString()), e.getMessage());
          assertThrows(IOException.class, () -> in.read(buf), "the stream stays broken");
        }
        f.delete(); // freeing on a lost server is not an error
      }
    }
  }

  @Test
  @Timeout(60)
  void readsPrefetchTheNextNonLocalChunk() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 2);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      remote.addServer("a", rig.shm.resolve("a"), 8, CHUNK);
      try (SpongeFileSystem fs = rig.open(remote)) {
        SpongeFile f = fs.create("prefetch");
        byte[] data = SpongeTestRig.randomBytes(4 * CHUNK, 6);
        SpongeTestRig.write(f, data);
        try (InputStream in = f.input()) {
          assertEquals(data[0] & 0xFF, in.read());
          // The reader is in local chunk 0, yet remote chunk 2 is already on its way.
          assertTrue(waitFor(() -> remote.readCalls() == 1), "prefetch of chunk 2 started");
          byte[] rest = in.readAllBytes();
          assertArrayEquals(java.util.Arrays.copyOfRange(data, 1, data.length), rest);
          assertEquals(2, remote.readCalls(), "each remote chunk fetched once");
        }
        assertEquals(2L * CHUNK, fs.metrics().bytesRead(Tier.LOCAL_MEMORY));
        assertEquals(2L * CHUNK, fs.metrics().bytesRead(Tier.REMOTE_MEMORY));
      }
    }
  }

  @Test
  @Timeout(60)
  void closingTheFileSystemDeletesForgottenFilesAndDeleteDuringWriteFreesEverything()
      throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 2);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      remote.addServer("a", rig.shm.resolve("a"), 8, CHUNK);
      SpongeFileSystem fs = rig.open(remote);
      SpongeFile written = fs.create("forgotten");
      SpongeTestRig.write(written, new byte[5 * CHUNK]);
      SpongeFile half = fs.create("half");
      OutputStream out = half.output();
      out.write(new byte[3 * CHUNK]);
      var pool = fs.localPool().orElseThrow();
      assertEquals(0, pool.freeChunks());
      half.delete();
      assertThrows(IOException.class, () -> out.write(1));
      assertEquals(2, fs.openFiles() + 1);
      fs.close();
      assertEquals(0, fs.openFiles());
      assertEquals(2, pool.chunkCount());
      try (var check =
          dev.levee.sponge.local.SharedMemoryPool.open(rig.poolDir, 2L * CHUNK, CHUNK)) {
        assertEquals(2, check.freeChunks());
        assertEquals(java.util.Map.of(), check.owners());
      }
      try (var server =
          dev.levee.sponge.local.SharedMemoryPool.open(rig.shm.resolve("a"), 8L * CHUNK, CHUNK)) {
        assertEquals(
            8,
            server.freeChunks(),
            "remote chunks freed (the remote client was closed with the fs)");
      }
      try (var files = java.nio.file.Files.list(rig.diskDir)) {
        assertEquals(0, files.count());
      }
    }
  }

  @Test
  @Timeout(60)
  void backgroundFreesStillBlockedWhenTheCloseWaitEndsAreLeftToTheServersAndCounted()
      throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      rig.conf.set(SpongeConf.FREE_CLOSE_WAIT_MS.name(), "0");
      remote.addServer("a", rig.shm.resolve("a"), 8, CHUNK);
      SpongeFileSystem fs = rig.open(remote);
      SpongeFile f = fs.create("slow-free");
      SpongeTestRig.write(f, new byte[3 * CHUNK]); // one local chunk, two remote
      CountDownLatch gate = remote.holdFrees();
      try {
        f.deleteInBackground();
        assertTrue(f.isDeleted());
        assertEquals(0, fs.openFiles());
        assertEquals(
            1, fs.localPool().orElseThrow().freeChunks(), "the local chunk is freed at once");
        Await.until("the background free reached the server", () -> remote.freeCalls() == 1);
        assertEquals(1, fs.pendingFrees());
        fs.close(); // returns although the free is still held: nothing to wait for with 0 ms
        assertEquals(1, fs.metrics().freesAbandoned());
        assertEquals(1, fs.metrics().chunksFreed(Tier.LOCAL_MEMORY));
        assertEquals(0, fs.metrics().chunksFreed(Tier.REMOTE_MEMORY));
      } finally {
        gate.countDown();
      }
    }
  }

  @Test
  @Timeout(60)
  void aFailedBackgroundFreeIsLoggedAndCountedNeverThrown() throws Exception {
    try (SpongeTestRig rig = new SpongeTestRig(CHUNK, 1);
        PoolBackedRemoteMemory remote = new PoolBackedRemoteMemory()) {
      remote.addServer("a", rig.shm.resolve("a"), 8, CHUNK);
      try (SpongeFileSystem fs = rig.open(remote)) {
        SpongeFile f = fs.create("failing-free");
        SpongeTestRig.write(f, new byte[3 * CHUNK]);
        remote.failFrees();
        f.deleteInBackground();
        Await.until("the background free ran", () -> fs.pendingFrees() == 0);
        assertEquals(1, fs.metrics().freeFailures(), "one tier of one file failed to free");
        assertEquals(1, fs.metrics().errors(Tier.REMOTE_MEMORY));
        assertEquals(1, fs.metrics().chunksFreed(Tier.LOCAL_MEMORY));
        assertEquals(0, fs.metrics().freesAbandoned());
        assertTrue(fs.metrics().freeNanos() > 0);
      }
    }
  }

  private static boolean waitFor(java.util.function.BooleanSupplier cond)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (System.nanoTime() < deadline) {
      if (cond.getAsBoolean()) {
        return true;
      }
      Thread.sleep(10);
    }
    return cond.getAsBoolean();
  }
}
