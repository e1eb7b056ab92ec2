package dev.levee.bench.hadoop.sponge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.progress.ProgressReporter;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The spill loop against real media, tiny: batches, read-back verification, and that everything is released. */
class SpillRunTest {
  private static final int CHUNK = 64 << 10;

  private static ProgressReporter quiet() {
    return new ProgressReporter("t", 0, "chunks", new PrintStream(new ByteArrayOutputStream()), 60_000,
        System::nanoTime);
  }

  @Test
  void sharedMemoryChunksAreWrittenReadAndFreedInBatches() throws Exception {
    Path dir = Path.of("/dev/shm", "levee-bench-test-" + ProcessHandle.current().pid());
    try (SharedMemoryPool pool = SharedMemoryPool.open(dir, 4L * CHUNK, CHUNK);
        SharedMemorySink sink = new SharedMemorySink(pool, ChunkOwner.currentProcess("127.0.0.1"), 4)) {
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
  void diskChunksLandAtDistinctRandomOffsetsAndTheFileIsDeleted(@TempDir Path dir) throws Exception {
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
    ChunkSink swapping = new ChunkSink() {
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
    IOException e = assertThrows(IOException.class, () -> SpillRun.run(swapping, 2, CHUNK, quiet(), () -> {}));
    assertTrue(e.getMessage().contains("chunk 0 came back holding chunk 1"), e.getMessage());
  }

  @Test
  void diskFileMustHoldABatch(@TempDir Path dir) {
    assertThrows(IllegalArgumentException.class,
        () -> new RandomOffsetDiskSink(dir.resolve("f"), CHUNK, 4L * CHUNK, 8, 1));
  }
}
