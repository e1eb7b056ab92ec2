package dev.levee.bench.hadoop.sponge;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The paper's background disk load (two tasks of another job streaming big files) as threads on the
 * spill disk: each writes its own file sequentially (synced every few MiB, so the data really
 * reaches the disk) and then reads it back with {@code O_DIRECT} (so the reads hit the disk, not
 * the page cache), over and over until stopped.
 */
final class BackgroundDiskLoad implements AutoCloseable {
  private static final int IO_BYTES = 4 << 20;
  private static final long SYNC_EVERY = 64L << 20;

  private final List<Thread> threads = new ArrayList<>();
  private final List<Path> files = new ArrayList<>();
  private final AtomicLong bytesMoved = new AtomicLong();
  private final AtomicReference<Throwable> failure = new AtomicReference<>();
  private final long startNanos = System.nanoTime();
  private volatile boolean stopped;

  private BackgroundDiskLoad() {}

  static BackgroundDiskLoad start(Path dir, int streams, long fileBytes) throws IOException {
    Files.createDirectories(dir);
    BackgroundDiskLoad load = new BackgroundDiskLoad();
    for (int i = 0; i < streams; i++) {
      Path file = dir.resolve("background-" + i + ".dat");
      load.files.add(file);
      Thread t = new Thread(() -> load.stream(file, fileBytes), "sponge-micro-background-io-" + i);
      t.setDaemon(true);
      load.threads.add(t);
    }
    load.threads.forEach(Thread::start);
    return load;
  }

  /** Background throughput so far, MB/s (10^6 bytes). */
  double mbPerSecond() {
    return bytesMoved.get() / 1e6 / Math.max(1e-9, (System.nanoTime() - startNanos) / 1e9);
  }

  /** Fails if a stream died: a "contended" measurement without contention would be a lie. */
  void checkAlive() throws IOException {
    Throwable t = failure.get();
    if (t != null) {
      throw new IOException("background disk load failed: " + t, t);
    }
  }

  @Override
  public void close() throws IOException {
    stopped = true;
    for (Thread t : threads) {
      try {
        t.join(30_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    for (Path f : files) {
      Files.deleteIfExists(f);
    }
  }

  private void stream(Path file, long fileBytes) {
    ByteBuffer buf =
        ByteBuffer.allocateDirect(IO_BYTES + 4096).alignedSlice(4096).limit(IO_BYTES).slice();
    for (int i = 0; i < IO_BYTES; i += 8) {
      buf.putLong(i, 0x9E3779B97F4A7C15L * (i + 1));
    }
    try {
      while (!stopped) {
        try (FileChannel w =
            FileChannel.open(
                file,
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
          long sinceSync = 0;
          for (long at = 0; at < fileBytes && !stopped; at += IO_BYTES) {
            buf.clear();
            while (buf.hasRemaining()) {
              w.write(buf, at + buf.position());
            }
            bytesMoved.addAndGet(IO_BYTES);
            sinceSync += IO_BYTES;
            if (sinceSync >= SYNC_EVERY) {
              w.force(false);
              sinceSync = 0;
            }
          }
          w.force(false);
        }
        try (FileChannel r = openForReading(file)) {
          for (long at = 0; at < fileBytes && !stopped; at += IO_BYTES) {
            buf.clear();
            int n = r.read(buf, at);
            if (n <= 0) {
              break;
            }
            bytesMoved.addAndGet(n);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      failure.compareAndSet(null, e);
    }
  }

  private static FileChannel openForReading(Path file) throws IOException {
    try {
      return FileChannel.open(file, StandardOpenOption.READ, ExtendedOpenOption.DIRECT);
    } catch (IOException | UnsupportedOperationException e) {
      return FileChannel.open(file, StandardOpenOption.READ);
    }
  }
}
