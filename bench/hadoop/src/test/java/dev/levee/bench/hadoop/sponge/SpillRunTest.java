package dev.levee.bench.hadoop.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.progress.ProgressReporter;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.Tier;
import dev.levee.sponge.client.ClientIdentity;
import dev.levee.sponge.client.ClientSettings;
import dev.levee.sponge.client.SpongeClient;
import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.config.SpongeServerConfig;
import dev.levee.sponge.discovery.ServerListEntry;
import dev.levee.sponge.discovery.StaticServerList;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import dev.levee.sponge.server.SpongeService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spill loop against real media, tiny: batches, read-back verification, and that everything is
 * released.
 */
class SpillRunTest {
  private static final int CHUNK = 64 << 10;

  private static ProgressReporter quiet() {
    return new ProgressReporter(
        "t", 0, "chunks", new PrintStream(new ByteArrayOutputStream()), 60_000, System::nanoTime);
  }

  @Test
  void sharedMemoryChunksAreWrittenReadAndFreedInBatches() throws Exception {
    Path dir = Path.of("/dev/shm", "levee-bench-test-" + ProcessHandle.current().pid());
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, 4L * CHUNK, CHUNK);
        SharedMemorySink sink =
            new SharedMemorySink(pool, ChunkOwner.currentProcess("127.0.0.1"), 4)) {
      int[] batches = {0};
      SpillRun.Result r = SpillRun.run(sink, 10, CHUNK, quiet(), () -> batches[0]++);
      assertEquals(3, batches[0]);
      assertEquals(10, r.writes().count());
      assertEquals(10, r.reads().count());
      assertEquals(10L * CHUNK, r.bytes());
      assertEquals(4, pool.freeChunks(), "every chunk freed after its batch");
    } finally {
      SpongeMicroSuite.deleteRecursively(dir);
    }
  }

  @Test
  void diskChunksLandAtDistinctRandomOffsetsAndTheFileIsDeleted(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("spill.dat");
    try (RandomOffsetDiskSink sink = new RandomOffsetDiskSink(file, CHUNK, 16L * CHUNK, 8, 1)) {
      SpillRun.Result r = SpillRun.run(sink, 20, CHUNK, quiet(), () -> {});
      assertEquals(20, r.reads().count());
      assertEquals(16L * CHUNK, Files.size(file));
    }
    assertFalse(Files.exists(file));
  }

  @Test
  void aMediumThatMixesUpChunksFailsTheRun() {
    ChunkSink swapping =
        new ChunkSink() {
          final ByteBuffer[] held = new ByteBuffer[2];

          @Override
          public int batchCapacity() {
            return 2;
          }

          @Override
          public void write(int slot, ByteBuffer chunk) {
            held[slot] = ByteBuffer.allocate(chunk.remaining()).put(chunk).flip();
          }

          @Override
          public ByteBuffer read(int slot) {
            return held[1 - slot].duplicate();
          }

          @Override
          public void freeBatch() {}

          @Override
          public void close() {}
        };
    IOException e =
        assertThrows(IOException.class, () -> SpillRun.run(swapping, 2, CHUNK, quiet(), () -> {}));
    assertTrue(e.getMessage().contains("chunk 0 came back holding chunk 1"), e.getMessage());
  }

  @Test
  void diskFileMustHoldABatch(@TempDir Path dir) {
    assertThrows(
        IllegalArgumentException.class,
        () -> new RandomOffsetDiskSink(dir.resolve("f"), CHUNK, 4L * CHUNK, 8, 1));
  }

  @Test
  void remoteSpongeFileChunksLandOnTheServerAndAreFreedPerBatch() throws Exception {
    Path poolDir = Path.of("/dev/shm", "levee-bench-remote-test-" + ProcessHandle.current().pid());
    Configuration server = new Configuration(false);
    server.set(SpongeConf.LOCAL_POOL_DIR.name(), poolDir.toString());
    server.set(SpongeConf.LOCAL_POOL_SIZE.name(), Long.toString(4L * CHUNK));
    server.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(CHUNK));
    server.set(SpongeConf.OWNER_HOST.name(), "127.0.0.1");
    server.set(SpongeConf.BIND_HOST.name(), "127.0.0.1");
    server.set(SpongeConf.ADVERTISED_HOST.name(), "127.0.0.1");
    server.set(SpongeConf.PORT.name(), "0");
    // The explicit opt-out, as the micro benchmark's server runs: its client has no job secret.
    server.set(SpongeConf.AUTH_REQUIRED.name(), "false");
    try (SpongeService node = SpongeService.start(SpongeServerConfig.from(server))) {
      Configuration task = new Configuration(false);
      task.set(SpongeConf.CHUNK_SIZE.name(), Integer.toString(CHUNK));
      task.set(SpongeConf.OWNER_HOST.name(), "127.0.0.1");
      task.setBoolean(SpongeConf.LOCAL_ENABLED.name(), false);
      task.setBoolean(SpongeConf.DISK_ENABLED.name(), false);
      task.setBoolean(SpongeConf.DFS_ENABLED.name(), false);
      task.setInt(SpongeConf.WRITE_MAX_IN_FLIGHT.name(), 3);
      SpongeClient client =
          new SpongeClient(
              ClientIdentity.ofCurrentProcess("application_0_0001", "127.0.0.1:1", null),
              new StaticServerList(List.of(new ServerListEntry(node.address(), 4, 4))),
              new ClientSettings(5_000, 10_000, CHUNK, 2));
      int[] batches = {0};
      try (SpongeFileSink sink =
          new SpongeFileSink(SpongeFileSystem.open(task, client), Tier.REMOTE_MEMORY, 4)) {
        SpillRun.Result r =
            SpillRun.run(
                sink,
                10,
                CHUNK,
                quiet(),
                () -> {
                  batches[0]++;
                  assertEquals(
                      0,
                      node.metrics().getRemoteChunksHeld(),
                      "the batch's file was deleted on the server too");
                });
        assertEquals(10, r.writes().count());
        assertEquals(10, r.reads().count());
      }
      assertEquals(3, batches[0]);
      assertEquals(10L * CHUNK, node.metrics().getBytesIn(), "every chunk went to the server");
      assertEquals(10L * CHUNK, node.metrics().getBytesOut(), "and was read back from it");
    } finally {
      SpongeMicroSuite.deleteRecursively(poolDir);
    }
  }
}
