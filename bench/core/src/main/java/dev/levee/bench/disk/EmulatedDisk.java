package dev.levee.bench.disk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A directory on an emulated spinning disk, for as long as this object is open: files written under
 * {@link #path()} land in a backing directory on the real disk, and every read and write first
 * waits for its turn on one emulated spindle ({@link DiskModel}). Closing unmounts it; a mount left
 * behind by a killed emulator is detached, so no later run finds a dead mount point.
 */
public final class EmulatedDisk implements AutoCloseable {
  private static final long MOUNT_WAIT_MS = 20_000;
  private static final long STOP_WAIT_MS = 10_000;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final DiskModel model;
  private final Path backing;
  private final Path mount;
  private final Path stats;
  private final Path log;
  private final Process process;

  private EmulatedDisk(
      DiskModel model, Path backing, Path mount, Path stats, Path log, Process process) {
    this.model = model;
    this.backing = backing;
    this.mount = mount;
    this.stats = stats;
    this.log = log;
    this.process = process;
  }

  /** Why it cannot run here (not root, no /dev/fuse, no Go), or empty. */
  public static Optional<String> unavailable() {
    return EmulatorBinary.unavailable();
  }

  /**
   * Mounts an emulated disk whose files live in {@code workDir/backing}, at {@code workDir/mount}.
   * {@code repoRoot} holds the emulator's sources (built on first use).
   */
  public static EmulatedDisk mount(Path repoRoot, Path workDir, DiskModel model)
      throws IOException, InterruptedException {
    Optional<String> why = unavailable();
    if (why.isPresent()) {
      throw new IOException(why.get());
    }
    Path bin = EmulatorBinary.ensureBuilt(repoRoot);
    Path backing = Files.createDirectories(workDir.resolve("backing"));
    Path mount = Files.createDirectories(workDir.resolve("mount"));
    Path stats = workDir.resolve("emulated-disk-counts.json");
    Path log = workDir.resolve("emulated-disk.log");
    Files.deleteIfExists(stats);
    Process p =
        new ProcessBuilder(EmulatorBinary.command(bin, backing, mount, model, stats))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    EmulatedDisk disk = new EmulatedDisk(model, backing, mount, stats, log, p);
    long deadline = System.currentTimeMillis() + MOUNT_WAIT_MS;
    // The emulator writes its first counts only once the kernel accepted the mount.
    while (!Files.exists(stats)) {
      if (!p.isAlive()) {
        throw new IOException(
            "the emulated disk did not mount on " + mount + ": " + Files.readString(log).strip());
      }
      if (System.currentTimeMillis() > deadline) {
        disk.close();
        throw new IOException("the emulated disk did not mount within " + MOUNT_WAIT_MS + " ms");
      }
      Thread.sleep(20);
    }
    return disk;
  }

  /** Where to put the files that should live on the emulated disk. */
  public Path path() {
    return mount;
  }

  /** Where those files really are (on the real disk). */
  public Path backing() {
    return backing;
  }

  public DiskModel model() {
    return model;
  }

  public long pid() {
    return process.pid();
  }

  /** The counts as of now (the emulator is asked to write them and this waits until it has). */
  public DiskCounts counts() throws IOException, InterruptedException {
    long before = sequence();
    new ProcessBuilder("kill", "-USR1", Long.toString(process.pid())).start().waitFor();
    long deadline = System.currentTimeMillis() + 5_000;
    while (sequence() == before) {
      if (!process.isAlive() || System.currentTimeMillis() > deadline) {
        throw new IOException("the emulated disk (pid " + process.pid() + ") did not report");
      }
      Thread.sleep(5);
    }
    return read(JSON.readTree(stats.toFile()));
  }

  private long sequence() throws IOException {
    return JSON.readTree(stats.toFile()).path("sequence").asLong();
  }

  private static DiskCounts read(JsonNode n) {
    return new DiskCounts(
        n.path("read_requests").asLong(),
        n.path("write_requests").asLong(),
        n.path("read_bytes").asLong(),
        n.path("write_bytes").asLong(),
        n.path("seeks").asLong(),
        n.path("busy_nanos").asLong(),
        n.path("elapsed_nanos").asLong(),
        n.path("cpu_nanos").asLong());
  }

  /** Unmounts; the files stay in {@link #backing()}. */
  @Override
  public void close() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(STOP_WAIT_MS, TimeUnit.MILLISECONDS)) {
      process.destroyForcibly().waitFor();
    }
    if (MountTable.isMounted(mount)) {
      // A killed emulator leaves a mount whose every access fails: detach it.
      new ProcessBuilder("umount", "-l", mount.toString()).inheritIO().start().waitFor();
    }
    if (MountTable.isMounted(mount)) {
      throw new IOException("the emulated disk is still mounted on " + mount);
    }
  }

  @Override
  public String toString() {
    return model.label() + " on " + mount + " (backing " + backing + ", log " + log + ")";
  }
}
