package dev.levee.bench.hadoop.median.load;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Disk contention as the paper made it: other tasks scanning big files on the disk spills go to
 * (its background job was a grep). Each reader owns one file, written and synced once up front, and
 * reads it from start to end over and over with {@code O_DIRECT}, so every read is a real disk read
 * and none is served by, or pollutes, the page cache.
 */
public final class DiskReaders implements AutoCloseable {
  private static final int IO_BYTES = 1 << 20;
  private static final int ALIGN = 4096;

  private final List<Path> files;
  private final ExecutorService pool;
  private final List<Future<?>> scans = new ArrayList<>();
  private final AtomicLong bytesRead = new AtomicLong();
  private final boolean direct;
  private volatile boolean stopped;

  /** Bytes read and when, to turn two snapshots into a throughput. */
  public record Snapshot(long bytes, long nanos) {
    /** MB/s (10^6 bytes) from {@code earlier} to this snapshot. */
    public double mbPerSecondSince(Snapshot earlier) {
      double seconds = (nanos - earlier.nanos) / 1e9;
      return seconds <= 0 ? 0 : (bytes - earlier.bytes) / 1e6 / seconds;
    }
  }

  private DiskReaders(List<Path> files, boolean direct) {
    this.files = List.copyOf(files);
    this.direct = direct;
    this.pool =
        Executors.newFixedThreadPool(
            files.size(),
            r -> {
              Thread t = new Thread(r, "median-disk-reader");
              t.setDaemon(true);
              return t;
            });
  }

  /**
   * Writes {@code readers} files of {@code fileBytes} under {@code dir} (a disk, not tmpfs) and
   * starts one reader thread per file.
   */
  public static DiskReaders start(Path dir, int readers, long fileBytes) throws IOException {
    Files.createDirectories(dir);
    String type = Files.getFileStore(dir).type();
    if (type.equals("tmpfs") || type.equals("ramfs")) {
      throw new IOException(dir + " is on " + type + ": that is memory, not the disk spills go to");
    }
    long size = Math.max(IO_BYTES, fileBytes / IO_BYTES * IO_BYTES);
    List<Path> made = new ArrayList<>();
    try {
      for (int i = 0; i < readers; i++) {
        Path f = dir.resolve("reader-" + i + ".dat");
        made.add(f);
        writeSynced(f, size);
      }
    } catch (IOException | RuntimeException e) {
      for (Path f : made) {
        Files.deleteIfExists(f);
      }
      throw e;
    }
    DiskReaders load = new DiskReaders(made, supportsDirect(made.get(0)));
    for (Path f : made) {
      load.scans.add(
          load.pool.submit(
              () -> {
                load.scan(f, size);
                return null;
              }));
    }
    return load;
  }

  /**
   * Whether reads bypass the page cache; without O_DIRECT they may be served from memory and prove
   * nothing.
   */
  public boolean direct() {
    return direct;
  }

  public Snapshot snapshot() {
    return new Snapshot(bytesRead.get(), System.nanoTime());
  }

  /** Fails if a reader died: a "contended" run without contention would be a lie. */
  public void checkAlive() throws IOException {
    for (Future<?> scan : scans) {
      // A scan only ends by itself when it failed.
      if (scan.isDone() && !stopped) {
        try {
          scan.get();
          throw new IOException("a background disk reader stopped on its own");
        } catch (ExecutionException e) {
          throw new IOException("background disk reader failed: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while checking the disk readers", e);
        }
      }
    }
  }

  @Override
  public void close() throws IOException {
    stopped = true;
    pool.shutdown();
    try {
      if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
    for (Path f : files) {
      Files.deleteIfExists(f);
    }
  }

  /**
   * Reads {@code file} start to end until stopped; an I/O error ends the scan and {@link
   * #checkAlive} reports it.
   */
  private void scan(Path file, long size) throws IOException {
    ByteBuffer buf =
        ByteBuffer.allocateDirect(IO_BYTES + ALIGN).alignedSlice(ALIGN).limit(IO_BYTES).slice();
    while (!stopped) {
      try (FileChannel r = open(file)) {
        for (long at = 0; at < size && !stopped; ) {
          buf.clear();
          int n = r.read(buf, at);
          if (n <= 0) {
            break;
          }
          at += n;
          bytesRead.addAndGet(n);
        }
      }
    }
  }

  private FileChannel open(Path file) throws IOException {
    return direct
        ? FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)
        : FileChannel.open(file, StandardOpenOption.READ);
  }

  private static boolean supportsDirect(Path file) {
    try (FileChannel ignored =
        FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT)) {
      return true;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }

  private static void writeSynced(Path file, long size) throws IOException {
    ByteBuffer block = ByteBuffer.allocateDirect(IO_BYTES);
    for (int i = 0; i < IO_BYTES; i += 8) {
      block.putLong(i, 0x9E3779B97F4A7C15L * (i + 1));
    }
    try (FileChannel w =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      for (long at = 0; at < size; at += IO_BYTES) {
        block.clear();
        while (block.hasRemaining()) {
          w.write(block, at + block.position());
        }
      }
      w.force(true);
    }
  }
}
