package dev.levee.sponge.tier;

import dev.levee.sponge.Tier;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * A file's disk chunks, all appended to one local file (created on the first disk chunk): one file
 * keeps the data contiguous and costs one create and one delete, however many chunks spill there.
 *
 * <p>Chunks move through a {@link FileChannel} (positional writes and reads, which Hadoop's local
 * file system does not offer), so the tier counts its bytes and operations in Hadoop's statistics
 * for the {@code file} scheme itself: a task's {@code FILE_BYTES_WRITTEN} and {@code
 * FILE_BYTES_READ} then include what SpongeFiles put on local disk, as they include stock's spills.
 */
public final class LocalDiskTier implements ChunkTier {
  private static final FileSystem.Statistics LOCAL_FS =
      FileSystem.getStatistics("file", RawLocalFileSystem.class);

  private final Path file;
  private FileChannel channel;
  private boolean created;
  private java.nio.file.FileStore store;
  private long end;
  private int chunks;

  public LocalDiskTier(Path file) {
    this.file = file;
  }

  @Override
  public Tier tier() {
    return Tier.LOCAL_DISK;
  }

  public Path file() {
    return file;
  }

  @Override
  public synchronized Optional<StoredChunk> store(ByteBuffer data) throws IOException {
    int length = data.remaining();
    if (channel == null) {
      Files.createDirectories(file.getParent());
      channel =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE_NEW,
              StandardOpenOption.READ,
              StandardOpenOption.WRITE);
      created = true;
      store =
          Files.getFileStore(
              file); // resolving the store reads the mount table: once per file, not per chunk
    }
    if (store.getUsableSpace() < length) {
      return Optional.empty();
    }
    long offset = end;
    ByteBuffer src = data.duplicate();
    try {
      while (src.hasRemaining()) {
        channel.write(src, offset + (length - src.remaining()));
      }
    } catch (IOException e) {
      // Leave no partial chunk behind: later chunks (or the next tier) must not inherit a torn
      // tail.
      channel.truncate(offset);
      throw e;
    }
    end = offset + length;
    chunks++;
    LOCAL_FS.incrementBytesWritten(length);
    LOCAL_FS.incrementWriteOps(1);
    return Optional.of(new StoredChunk.Disk(file, offset, length));
  }

  @Override
  public synchronized void read(StoredChunk chunk, ByteBuffer dst) throws IOException {
    StoredChunk.Disk c = (StoredChunk.Disk) chunk;
    ByteBuffer target = dst.slice(dst.position(), c.length());
    long pos = c.offset();
    while (target.hasRemaining()) {
      int n = channel.read(target, pos);
      if (n < 0) {
        throw new EOFException(file + " ends before " + c);
      }
      pos += n;
    }
    dst.position(dst.position() + c.length());
    LOCAL_FS.incrementBytesRead(c.length());
    LOCAL_FS.incrementReadOps(1);
  }

  @Override
  public synchronized int releaseAll() throws IOException {
    int freed = chunks;
    chunks = 0;
    try {
      if (channel != null) {
        channel.close();
        channel = null;
      }
    } finally {
      if (created) {
        Files.deleteIfExists(file);
        created = false;
      }
    }
    return freed;
  }
}
