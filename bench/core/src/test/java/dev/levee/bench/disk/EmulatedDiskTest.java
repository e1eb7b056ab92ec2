package dev.levee.bench.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.results.RepoLayout;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulated disk through a real FUSE mount: files land on the real disk unchanged, and the model
 * charges what a spindle would (one seek per switch of stream, the bytes at the set rate). Counts,
 * not times, are asserted: the times follow from them by the model's arithmetic.
 */
class EmulatedDiskTest {
  private static final int MB = 1 << 20;
  private static final Path ROOT = RepoLayout.repoRoot(Path.of("").toAbsolutePath());

  @TempDir static Path dir;
  static EmulatedDisk disk;

  @BeforeAll
  static void mount() throws Exception {
    Assumptions.assumeTrue(
        EmulatedDisk.unavailable().isEmpty(), EmulatedDisk.unavailable().orElse(""));
    // Fast enough that the test's 40 MB cost under a second, slow enough that each request waits.
    disk = EmulatedDisk.mount(ROOT, dir.resolve("disk"), new DiskModel(200, 2, 0));
  }

  @AfterAll
  static void unmount() throws Exception {
    if (disk != null) {
      disk.close();
      assertFalse(MountTable.isMounted(disk.path()), "closing unmounts");
    }
  }

  private static void write(FileChannel ch, byte[] data) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(data);
    while (b.hasRemaining()) {
      ch.write(b);
    }
  }

  private static FileChannel create(Path p) throws IOException {
    return FileChannel.open(
        p,
        StandardOpenOption.CREATE,
        StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
  }

  @Test
  void filesLandInTheBackingDirectoryByteForByte() throws Exception {
    byte[] data = new byte[3 * MB + 12_345];
    new Random(7).nextBytes(data);
    Files.createDirectories(disk.path().resolve("sub"));
    Files.write(disk.path().resolve("sub/f"), data);
    assertArrayEquals(data, Files.readAllBytes(disk.backing().resolve("sub/f")));
    assertArrayEquals(data, Files.readAllBytes(disk.path().resolve("sub/f")));
    assertTrue(MountTable.isMounted(disk.path()));
    assertEquals("fuse.leveedisk", MountTable.current().mountOf(disk.path().toRealPath()).type());
  }

  @Test
  void oneSequentialStreamSeeksOnceAndIsChargedItsBytes() throws Exception {
    DiskCounts before = disk.counts();
    try (FileChannel ch = create(disk.path().resolve("sequential"))) {
      for (int i = 0; i < 8; i++) {
        write(ch, new byte[MB]);
      }
    }
    DiskCounts d = disk.counts().minus(before);
    assertEquals(8L * MB, d.writeBytes());
    assertEquals(1, d.seeks(), "a stream that never moves the head seeks only to start");
    long expected = disk.model().chargeNanos(8L * MB, 1);
    // Each request's charge is rounded down to a nanosecond.
    assertTrue(
        Math.abs(d.busyNanos() - expected) <= d.writeRequests(),
        d.busyNanos() + " ns busy, the model says " + expected);
  }

  @Test
  void aSpanEndingAfterTheSamplersLatestTickIsMeasuredNotUnknown() throws Exception {
    // A run's last job: its phases end just before the sampler's next tick and it is asked at once.
    try (BusySampler sampler = BusySampler.start(DiskPlace.emulated(disk, dir, System.err))) {
      // A sample at or before the span's start, whenever the sampler's thread took its first one.
      sampler.between(0, System.currentTimeMillis());
      long from = System.currentTimeMillis();
      try (FileChannel ch = create(disk.path().resolve("last-phase"))) {
        write(ch, new byte[4 * MB]);
      }
      BusySampler.Span s = sampler.between(from, System.currentTimeMillis());
      assertFalse(Double.isNaN(s.busy()), "the span's end is sampled when it is asked for");
      assertTrue(s.writtenMb() >= 4 * MB / 1e6, s.writtenMb() + " MB written");
    }
  }

  @Test
  void interleavedStreamsPayASeekAtEverySwitch() throws Exception {
    DiskCounts before = disk.counts();
    try (FileChannel a = create(disk.path().resolve("a"));
        FileChannel b = create(disk.path().resolve("b"))) {
      for (int i = 0; i < 4; i++) {
        write(a, new byte[MB]);
        write(b, new byte[MB]);
      }
    }
    DiskCounts d = disk.counts().minus(before);
    assertEquals(8L * MB, d.writeBytes());
    assertEquals(8, d.seeks(), "every switch between the two files moves the head");
  }

  @Test
  void aFileReadAfterItIsReopenedComesFromTheDisk() throws Exception {
    Path f = disk.path().resolve("read-back");
    Files.write(f, new byte[4 * MB]);
    DiskCounts before = disk.counts();
    assertEquals(4 * MB, Files.readAllBytes(f).length);
    DiskCounts d = disk.counts().minus(before);
    assertTrue(d.readBytes() >= 4L * MB, d.readBytes() + " bytes read from the emulated disk");
    assertEquals(0, d.writeBytes());
    assertTrue(d.seeks() >= 1, "reading another file than the last written moves the head");
  }

  @Test
  void aModelOutsideItsRangeIsRefusedNamingWhatIsAllowed() throws Exception {
    BadArgumentException e =
        assertThrows(BadArgumentException.class, () -> new DiskModel(120, 5000, 0));
    assertTrue(e.getMessage().contains("5000.0 ms is outside 0 to 1000"), e.getMessage());
    Path bin = EmulatorBinary.ensureBuilt(ROOT);
    Process p =
        new ProcessBuilder(
                bin.toString(),
                "--backing",
                dir.toString(),
                "--mount",
                dir.toString(),
                "--seek-ms",
                "5000")
            .redirectErrorStream(true)
            .start();
    String out = new String(p.getInputStream().readAllBytes());
    assertTrue(p.waitFor(30, TimeUnit.SECONDS));
    assertEquals(2, p.exitValue(), out);
    assertTrue(out.contains("--seek-ms 5000 is outside 0 to 1000"), out);
  }

  /**
   * A DataNode's pattern (64 KB of block, 512 B of checksums in another file, over and over)
   * through a disk with a write-back cache reaches the spindle as a few long runs, where the
   * write-through disk above seeks at every switch; a file opened with O_DSYNC still waits write by
   * write.
   */
  @Test
  void aWriteBackCacheTurnsInterleavedSmallWritesIntoLongRunsButNotSynchronousOnes()
      throws Exception {
    EmulatedDisk cached =
        EmulatedDisk.mount(ROOT, dir.resolve("cached"), new DiskModel(200, 2, 64));
    try {
      DiskCounts before = cached.counts();
      try (FileChannel block = create(cached.path().resolve("blk"));
          FileChannel meta = create(cached.path().resolve("blk.meta"))) {
        for (int i = 0; i < 64; i++) {
          write(block, new byte[64 << 10]);
          write(meta, new byte[512]);
        }
        block.force(false);
        meta.force(false);
      }
      DiskCounts d = cached.counts().minus(before);
      assertEquals(64L * ((64 << 10) + 512), d.writeBytes(), "fsync waits until all is written");
      assertTrue(d.seeks() <= 8, d.seeks() + " seeks for 128 interleaved writes (at most 8)");

      before = cached.counts();
      try (FileChannel a = synchronous(cached.path().resolve("sync-a"));
          FileChannel b = synchronous(cached.path().resolve("sync-b"))) {
        for (int i = 0; i < 4; i++) {
          write(a, new byte[MB]);
          write(b, new byte[MB]);
        }
      }
      d = cached.counts().minus(before);
      assertEquals(8L * MB, d.writeBytes());
      assertEquals(8, d.seeks(), "O_DSYNC writes bypass the cache: a seek at every switch");
    } finally {
      cached.close();
    }
  }

  private static FileChannel synchronous(Path p) throws IOException {
    return FileChannel.open(
        p, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.DSYNC);
  }

  /** The emulator's own Go tests (its write-back cache's model), so CI runs them. */
  @Test
  void theEmulatorsOwnTestsPass() throws Exception {
    Path log = dir.resolve("go-test.log");
    Process p =
        new ProcessBuilder(EmulatorBinary.go().orElseThrow(), "test", "./...")
            .directory(ROOT.resolve(EmulatorBinary.SOURCES).toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "go test ended within 300 s");
    assertEquals(0, p.exitValue(), Files.readString(log));
  }

  @Test
  void aKilledEmulatorLeavesNoDeadMountBehind() throws Exception {
    EmulatedDisk other =
        EmulatedDisk.mount(ROOT, dir.resolve("killed"), DiskModel.SEVEN_THOUSAND_RPM);
    Files.writeString(other.path().resolve("kept"), "written before the kill");
    ProcessHandle emulator = ProcessHandle.of(other.pid()).orElseThrow();
    new ProcessBuilder("kill", "-KILL", Long.toString(other.pid())).start().waitFor();
    emulator.onExit().get(10, TimeUnit.SECONDS);
    assertFalse(emulator.isAlive(), "SIGKILL ends the emulator");
    other.close();
    assertFalse(MountTable.isMounted(other.path()), "the dead mount is detached");
    assertEquals("written before the kill", Files.readString(other.backing().resolve("kept")));
  }
}
