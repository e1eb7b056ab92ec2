package dev.levee.bench.disk;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/** Where a suite's disk files go for one run, and what every result line records about it. */
public final class DiskPlace implements AutoCloseable {
  private final Path dir;
  private final EmulatedDisk emulated;
  private final Path work;
  private final PrintStream err;

  private DiskPlace(Path dir, EmulatedDisk emulated, Path work, PrintStream err) {
    this.dir = dir;
    this.emulated = emulated;
    this.work = work;
    this.err = err;
  }

  /** Files on the real disk, in {@code dir}. */
  public static DiskPlace real(Path dir) {
    return new DiskPlace(dir, null, null, null);
  }

  static DiskPlace emulated(EmulatedDisk disk, Path work, PrintStream err) {
    return new DiskPlace(disk.path(), disk, work, err);
  }

  /** The directory the suite writes its disk files in. */
  public Path dir() {
    return dir;
  }

  public boolean isEmulated() {
    return emulated != null;
  }

  /** The emulated disk the files are on; null on the real disk. */
  EmulatedDisk emulatedDisk() {
    return emulated;
  }

  /** The emulated disk's model, if the disk is emulated. */
  public Optional<DiskModel> model() {
    return emulated == null ? Optional.empty() : Optional.of(emulated.model());
  }

  /** "real" or e.g. "emulated 120 MB/s 8.0 ms seek", for tables. */
  public String label() {
    return emulated == null ? "real" : emulated.model().label();
  }

  /** The parameters every result line of the run carries. */
  public Map<String, Object> params() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("disk", emulated == null ? "real" : "emulated");
    if (emulated != null) {
      p.put("emulated_disk_mb_per_s", emulated.model().bandwidthMb());
      p.put("emulated_disk_seek_ms", emulated.model().seekMs());
      p.put("emulated_disk_write_cache_mb", emulated.model().writeCacheMb());
    }
    return p;
  }

  /** The emulator's counts so far, if the disk is emulated. */
  public Optional<DiskCounts> counts() throws IOException, InterruptedException {
    return emulated == null ? Optional.empty() : Optional.of(emulated.counts());
  }

  /** Unmounts an emulated disk, says what it moved and what it cost, and removes its files. */
  @Override
  public void close() throws IOException, InterruptedException {
    if (emulated == null) {
      return;
    }
    DiskCounts c = emulated.counts();
    emulated.close();
    err.printf(
        Locale.ROOT,
        "disk: the emulated disk wrote %.0f MB and read %.0f MB in %d requests with %d seeks, busy"
            + " %.1f s; the emulator used %.1f s of CPU in %.1f s (%.0f %% of one core)%n",
        c.writeBytes() / 1e6,
        c.readBytes() / 1e6,
        c.readRequests() + c.writeRequests(),
        c.seeks(),
        c.busyNanos() / 1e9,
        c.cpuNanos() / 1e9,
        c.elapsedNanos() / 1e9,
        100 * c.coresUsed());
    try (Stream<Path> files = Files.walk(work)) {
      files.sorted(Comparator.reverseOrder()).forEach(DiskPlace::delete);
    }
  }

  private static void delete(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
