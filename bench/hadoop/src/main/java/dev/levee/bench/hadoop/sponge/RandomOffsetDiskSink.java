package dev.levee.bench.hadoop.sponge;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;

/**
 * Table 1's disk: each chunk goes to a random chunk-aligned offset of one file, as the paper did,
 * so every write pays a seek and the page cache cannot merge neighbours. Writes use {@code
 * O_DSYNC}: a write returns only once its data is on the device, so the cache cannot absorb it.
 * Read-back uses {@code O_DIRECT} (when the file system supports it) so it measures the disk, not
 * the copy just left in the page cache.
 *
 * <p>Slots of one batch are distinct offsets (drawn without replacement), so every chunk can be
 * verified on read.
 */
final class RandomOffsetDiskSink implements ChunkSink {
  private static final int ALIGN = 4096;

  private final Path file;
  private final int chunkSize;
  private final long slots;
  private final long[] offsets;
  private final SplittableRandom random;
  private final FileChannel writer;
  private final FileChannel directReader;
  private final FileChannel cachedReader;
  private final ByteBuffer readBuffer;

  /**
   * @param fileBytes the region random offsets are drawn from; at least {@code batch} chunks
   */
  RandomOffsetDiskSink(Path file, int chunkSize, long fileBytes, int batch, long seed)
      throws IOException {
    this.file = file;
    this.chunkSize = chunkSize;
    this.slots = fileBytes / chunkSize;
    if (slots < batch) {
      throw new IllegalArgumentException(
          "disk file of "
              + fileBytes
              + " bytes holds "
              + slots
              + " chunks, fewer than"
              + " a batch of "
              + batch);
    }
    this.offsets = new long[batch];
    this.random = new SplittableRandom(seed);
    Files.createDirectories(file.getParent());
    this.writer =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE,
            StandardOpenOption.READ,
            StandardOpenOption.DSYNC);
    FileChannel direct = null;
    try {
      writer.truncate(0);
      // Sparse: the first pass over an offset also allocates its blocks, as a fresh spill file
      // does.
      writer.write(ByteBuffer.allocate(1), (long) slots * chunkSize - 1);
      if (chunkSize % ALIGN == 0) {
        try {
          direct = FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
        } catch (IOException | UnsupportedOperationException e) {
          direct = null; // the file system has no O_DIRECT; reads then go through the page cache
          // (recorded)
        }
      }
      this.directReader = direct;
      this.cachedReader = direct == null ? FileChannel.open(file, StandardOpenOption.READ) : null;
    } catch (IOException | RuntimeException e) {
      writer.close();
      Files.deleteIfExists(file);
      throw e;
    }
    this.readBuffer =
        ByteBuffer.allocateDirect(chunkSize + ALIGN).alignedSlice(ALIGN).limit(chunkSize).slice();
    beginBatch();
  }

  @Override
  public int batchCapacity() {
    return offsets.length;
  }

  @Override
  public void write(int slot, ByteBuffer chunk) throws IOException {
    long at = offsets[slot];
    while (chunk.hasRemaining()) {
      at += writer.write(chunk, at);
    }
  }

  @Override
  public ByteBuffer read(int slot) throws IOException {
    FileChannel ch = directReader != null ? directReader : cachedReader;
    readBuffer.clear();
    long at = offsets[slot];
    while (readBuffer.hasRemaining()) {
      int n = ch.read(readBuffer, at);
      if (n < 0) {
        throw new IOException(file + " ended at " + at + " reading slot " + slot);
      }
      at += n;
    }
    return readBuffer.flip();
  }

  @Override
  public void freeBatch() {
    beginBatch();
  }

  /**
   * Whether read-back bypasses the page cache ({@code O_DIRECT}); false on file systems without it.
   */
  boolean readsDirect() {
    return directReader != null;
  }

  @Override
  public void close() throws IOException {
    try (FileChannel w = writer;
        FileChannel d = directReader;
        FileChannel c = cachedReader) {
      // closed by try-with-resources
    } finally {
      Files.deleteIfExists(file);
    }
  }

  /** Draws the batch's offsets: distinct random slots (Floyd's sampling keeps it O(batch)). */
  private void beginBatch() {
    java.util.HashSet<Long> chosen = new java.util.HashSet<>();
    for (long j = slots - offsets.length; j < slots; j++) {
      long t = random.nextLong(j + 1);
      chosen.add(chosen.contains(t) ? j : t);
    }
    int i = 0;
    for (long s : chosen) {
      offsets[i++] = s * chunkSize;
    }
    // HashSet order is not random enough for seeks (it clusters small keys): shuffle.
    for (int k = offsets.length - 1; k > 0; k--) {
      int r = random.nextInt(k + 1);
      long tmp = offsets[k];
      offsets[k] = offsets[r];
      offsets[r] = tmp;
    }
  }
}
