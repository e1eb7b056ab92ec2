package dev.levee.bench.hadoop.themis;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The kernel's page cache, emptied on demand so the disk serves the reads that follow: on a 23 GB
 * machine a bench's whole data set otherwise stays cached and the disks see no reads at all. Needs
 * root (writes /proc/sys/vm/drop_caches after a sync of dirty pages); affects the whole machine.
 */
final class PageCache {
  private static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

  private PageCache() {}

  /** Why dropping cannot work here, or null when it can be tried. */
  static String unavailableReason() {
    if (!Files.exists(DROP_CACHES)) {
      return DROP_CACHES + " does not exist (not Linux, or /proc is not mounted)";
    }
    if (!Files.isWritable(DROP_CACHES)) {
      return DROP_CACHES + " is not writable (needs root and a writable /proc/sys)";
    }
    return null;
  }

  /**
   * What a drop cost: its time, and the bytes the disks read while the code was read back in, which
   * are not the job's I/O.
   */
  record Drop(double seconds, long codeBytesRead) {
    Drop plus(Drop other) {
      return new Drop(seconds + other.seconds, codeBytesRead + other.codeBytesRead);
    }
  }

  /**
   * Writes back dirty pages, drops clean ones and the dentry and inode caches, then reads the code
   * back in (this JVM's class path, which the mini cluster's task JVMs share, and the JDK's module
   * image): a real cluster's nodes keep the Hadoop jars in memory, and without this every task
   * JVM's start would read some 200 MB of jars from disk and count it as the job's I/O.
   */
  static Drop drop() throws IOException, InterruptedException {
    long start = System.nanoTime();
    dropAll();
    DiskCounters before = DiskCounters.now();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (Files.isRegularFile(p)) {
        readAll(p);
      }
    }
    Path modules = Path.of(System.getProperty("java.home"), "lib", "modules");
    if (Files.isRegularFile(modules)) {
      readAll(modules);
    }
    long codeBytes = Math.max(0, DiskCounters.now().minus(before).bytesRead());
    return new Drop((System.nanoTime() - start) / 1e9, codeBytes);
  }

  private static void dropAll() throws IOException, InterruptedException {
    Process sync = new ProcessBuilder("sync").inheritIO().start();
    if (sync.waitFor() != 0) {
      throw new IOException("sync exited with " + sync.exitValue());
    }
    Files.writeString(DROP_CACHES, "3", StandardOpenOption.WRITE);
  }

  /**
   * Proves the drop takes effect on this machine: a file just written and read is served from the
   * cache (the disks read almost nothing), and after a drop the disks read it again. A VM whose
   * /proc accepts the write without dropping anything fails here rather than in the results.
   *
   * @return the bytes the disks read for the file after the drop
   */
  static long verify(Path dir) throws IOException, InterruptedException {
    int size = 64 << 20;
    Path file = Files.createTempFile(dir, "drop-check", ".bin");
    try {
      byte[] block = new byte[1 << 20];
      new java.util.Random(1).nextBytes(block);
      try (OutputStream out = Files.newOutputStream(file)) {
        for (int i = 0; i < size; i += block.length) {
          out.write(block);
        }
      }
      readAll(file);
      dropAll();
      DiskCounters before = DiskCounters.now();
      readAll(file);
      long read = DiskCounters.now().minus(before).bytesRead();
      if (read < size * 0.9) {
        throw new IllegalStateException(
            "--drop-caches: after writing 3 to "
                + DROP_CACHES
                + " the disks read "
                + read
                + " bytes of a "
                + size
                + "-byte file: the drop has no effect here (a VM or container whose page cache"
                + " the guest cannot drop)");
      }
      return read;
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static void readAll(Path file) throws IOException {
    byte[] buf = new byte[1 << 20];
    try (var in = Files.newInputStream(file)) {
      while (in.read(buf) >= 0) {
        // reading is the point
      }
    }
  }
}
