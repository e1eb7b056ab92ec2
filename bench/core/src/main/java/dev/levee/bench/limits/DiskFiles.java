package dev.levee.bench.limits;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file of incompressible bytes and forces it to the device; shared by the disk write and
 * read probes.
 */
final class DiskFiles {
  static final int CHUNK = 4 << 20;

  private DiskFiles() {}

  /** Returns the nanos spent, from the first write to fsync returning. */
  static long writeAndSync(Path file, long bytes, ByteBuffer chunk) throws IOException {
    try (FileChannel ch =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
      long start = System.nanoTime();
      long written = 0;
      while (written < bytes) {
        ByteBuffer b = chunk.duplicate().clear();
        b.limit((int) Math.min(b.capacity(), bytes - written));
        while (b.hasRemaining()) {
          written += ch.write(b);
        }
      }
      ch.force(true);
      return System.nanoTime() - start;
    }
  }
}
