package dev.levee.bench.hadoop.median.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real load generators, kept tiny: they must do what they claim and leave nothing behind. */
class LoadGeneratorsTest {
  private static final long MIB = 1L << 20;

  @TempDir Path dir;

  @Test
  void diskReadersReallyReadAndDeleteTheirFiles() throws Exception {
    Path readersDir = dir.resolve("readers");
    try (DiskReaders readers = DiskReaders.start(readersDir, 2, 8 * MIB)) {
      DiskReaders.Snapshot before = readers.snapshot();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (readers.snapshot().bytes() - before.bytes() < 16 * MIB
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      readers.checkAlive();
      assertTrue(
          readers.snapshot().bytes() - before.bytes() >= 16 * MIB, "readers read too little");
      assertTrue(readers.snapshot().mbPerSecondSince(before) > 0);
      try (Stream<Path> files = Files.list(readersDir)) {
        assertEquals(2, files.count());
      }
    }
    try (Stream<Path> files = Files.list(readersDir)) {
      assertEquals(0, files.count());
    }
  }

  @Test
  void diskReadersRefuseMemoryBackedDirectories() {
    IOException e =
        assertThrows(IOException.class, () -> DiskReaders.start(Path.of("/dev/shm"), 1, 16 * MIB));
    assertTrue(e.getMessage().contains("tmpfs"), e.getMessage());
  }

  @Test
  void squeezePinsWithinItsCapAndGivesEverythingBackOnClose() throws Exception {
    Path shm = Path.of("/dev/shm");
    Path file = shm.resolve("levee-median-squeeze-" + ProcessHandle.current().pid() + ".dat");
    PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
    // A 128 MiB cap: harmless on any machine that can run this build.
    try (PageCacheSqueeze squeeze =
        PageCacheSqueeze.start(shm, SqueezePlan.withDefaultFloor(1L << 30, 128 * MIB), quiet)) {
      assertEquals(128 * MIB, squeeze.pinnedBytes());
      assertEquals(128 * MIB, Files.size(file));
      Thread.sleep(3 * PageCacheSqueeze.WATCH_MS);
      assertTrue(squeeze.windowMinAvailableBytes() > 0);
      assertEquals(0, squeeze.releasedBytes());
    }
    assertFalse(Files.exists(file));
  }

  @Test
  void squeezeRefusesADiskDirectory() {
    IOException e =
        assertThrows(
            IOException.class,
            () ->
                PageCacheSqueeze.start(
                    dir,
                    SqueezePlan.withDefaultFloor(1L << 30, MIB),
                    new PrintStream(PrintStream.nullOutputStream())));
    assertTrue(e.getMessage().contains("not tmpfs"), e.getMessage());
  }
}
