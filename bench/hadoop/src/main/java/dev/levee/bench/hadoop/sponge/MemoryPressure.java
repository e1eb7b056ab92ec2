package dev.levee.bench.hadoop.sponge;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.hadoop.median.load.MemInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The paper's "busy node": memory pinned so the page cache has little room to batch and reorder
 * disk writes. Done with a file on {@code /dev/shm}: tmpfs pages cannot be dropped like cache (and
 * this machine has no swap), so they stay resident without growing any JVM heap. Deleting the file
 * gives the memory back.
 */
final class MemoryPressure implements AutoCloseable {
  /** Left to everyone else on the machine no matter what is asked. */
  static final long RESERVE_BYTES = 2L << 30;

  private final Path file;
  private final long bytes;

  private MemoryPressure(Path file, long bytes) {
    this.file = file;
    this.bytes = bytes;
  }

  /**
   * Pins {@code bytes}, refusing (naming {@code option}) an amount that would leave less than
   * {@link #RESERVE_BYTES} of the memory available now.
   */
  static MemoryPressure pin(String option, Path file, long bytes) throws IOException {
    long available = memAvailableBytes();
    checkAffordable(option, bytes, available);
    MemoryPressure p = new MemoryPressure(file, bytes);
    ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
    while (block.hasRemaining()) {
      block.put((byte) 0x5A);
    }
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      for (long at = 0; at < bytes; at += block.capacity()) {
        block.clear().limit((int) Math.min(block.capacity(), bytes - at));
        while (block.hasRemaining()) {
          ch.write(block, at + block.position());
        }
      }
    } catch (IOException | RuntimeException e) {
      Files.deleteIfExists(file);
      throw e;
    }
    return p;
  }

  static void checkAffordable(String option, long bytes, long availableBytes) {
    if (bytes > availableBytes - RESERVE_BYTES) {
      throw new BadArgumentException(
          "--"
              + option
              + " "
              + bytes
              + " bytes would leave less than "
              + (RESERVE_BYTES >> 20)
              + " MiB of the "
              + (availableBytes >> 20)
              + " MiB available (MemAvailable); "
              + "ask for at most "
              + Math.max(0, (availableBytes - RESERVE_BYTES) >> 20)
              + " MiB");
    }
  }

  /** {@code MemAvailable} from {@code /proc/meminfo}. */
  static long memAvailableBytes() throws IOException {
    return MemInfo.read().availableBytes();
  }

  long bytes() {
    return bytes;
  }

  @Override
  public void close() throws IOException {
    Files.deleteIfExists(file);
  }
}
