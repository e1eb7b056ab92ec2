package dev.levee.bench.hadoop.median.load;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The paper's memory pressure: memory pinned so the page cache cannot absorb spills. The memory is
 * a file on tmpfs ({@code /dev/shm}): its pages cannot be reclaimed like cache (and there is no
 * swap here), yet truncating the file returns them at once, which a JVM heap could not do.
 *
 * <p>Sized by a {@link SqueezePlan} from {@code /proc/meminfo}, and safe on a shared machine: a
 * watchdog thread reads {@code MemAvailable} every {@value #WATCH_MS} ms and shrinks the file
 * whenever memory gets short; a guard process deletes the file if this JVM dies without closing
 * (even on SIGKILL); {@link #close} deletes it.
 */
public final class PageCacheSqueeze implements AutoCloseable {
  static final long WATCH_MS = 100;
  private static final int WRITE_BLOCK = 4 << 20;

  private final Path file;
  private final SqueezePlan plan;
  private final FileChannel channel;
  private final Process guard;
  private final PrintStream log;
  private final AtomicLong pinned = new AtomicLong();
  private final AtomicLong released = new AtomicLong();
  private final AtomicLong windowMinAvailable = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong windowMinPinned = new AtomicLong(Long.MAX_VALUE);
  private final Thread watchdog;
  private volatile boolean closed;

  private PageCacheSqueeze(
      Path file, SqueezePlan plan, FileChannel channel, Process guard, PrintStream log) {
    this.file = file;
    this.plan = plan;
    this.channel = channel;
    this.guard = guard;
    this.log = log;
    this.watchdog = new Thread(this::watch, "median-page-cache-squeeze-watchdog");
    this.watchdog.setDaemon(true);
  }

  /**
   * Pins what {@code plan} allows now, in a file under {@code dir} (which must be tmpfs), and
   * starts the watchdog. Pins nothing (and says so) when the machine has no memory to spare.
   */
  public static PageCacheSqueeze start(Path dir, SqueezePlan plan, PrintStream log)
      throws IOException {
    String type = Files.getFileStore(dir).type();
    if (!type.equals("tmpfs")) {
      throw new IOException(
          dir
              + " is "
              + type
              + ", not tmpfs: pinned pages must be memory that cache cannot reclaim");
    }
    long pid = ProcessHandle.current().pid();
    Path file = dir.resolve("levee-median-squeeze-" + pid + ".dat");
    Process guard =
        new ProcessBuilder(
                "sh",
                "-c",
                "while kill -0 \"$1\" 2>/dev/null; do sleep 1; done; rm -f \"$2\"",
                "levee-squeeze-guard",
                Long.toString(pid),
                file.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    FileChannel channel;
    try {
      channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    } catch (IOException e) {
      guard.destroy();
      throw e;
    }
    PageCacheSqueeze squeeze = new PageCacheSqueeze(file, plan, channel, guard, log);
    try {
      squeeze.inflate(plan.pinBytes(MemInfo.read()));
    } catch (IOException | RuntimeException e) {
      squeeze.close();
      throw e;
    }
    squeeze.watchdog.start();
    return squeeze;
  }

  /** Bytes pinned now. */
  public long pinnedBytes() {
    return pinned.get();
  }

  /**
   * Bytes the watchdog gave back early because memory got short (the final release on close not
   * counted).
   */
  public long releasedBytes() {
    return released.get();
  }

  /** Starts a new observation window (one job). */
  public void resetWindow() {
    windowMinAvailable.set(Long.MAX_VALUE);
    windowMinPinned.set(pinned.get());
  }

  /** Lowest {@code MemAvailable} the watchdog saw in this window; -1 if it has not looked yet. */
  public long windowMinAvailableBytes() {
    long v = windowMinAvailable.get();
    return v == Long.MAX_VALUE ? -1 : v;
  }

  /** Least memory pinned at any time in this window. */
  public long windowMinPinnedBytes() {
    return Math.min(windowMinPinned.get(), pinned.get());
  }

  private void inflate(long target) throws IOException {
    ByteBuffer block = ByteBuffer.allocateDirect(WRITE_BLOCK);
    while (block.hasRemaining()) {
      block.put((byte) 0x5A);
    }
    long at = 0;
    while (at < target) {
      // Re-check as we go: memory taken by others since sizing must not be squeezed out of them.
      if (at % SqueezePlan.STEP_BYTES == 0
          && at > 0
          && MemInfo.read().availableBytes() < plan.leaveBytes()) {
        log.printf(
            "page-cache squeeze: stopped at %d MiB of %d MiB, MemAvailable reached %d MiB%n",
            at >> 20, target >> 20, plan.leaveBytes() >> 20);
        break;
      }
      block.clear().limit((int) Math.min(block.capacity(), target - at));
      while (block.hasRemaining()) {
        at += channel.write(block, at);
      }
      pinned.set(at);
    }
    resetWindow();
  }

  private void watch() {
    while (!closed) {
      try {
        long available = MemInfo.read().availableBytes();
        windowMinAvailable.accumulateAndGet(available, Math::min);
        long now = pinned.get();
        long target = plan.deflatedSize(now, available);
        if (target < now) {
          channel.truncate(target);
          pinned.set(target);
          released.addAndGet(now - target);
          windowMinPinned.accumulateAndGet(target, Math::min);
          log.printf(
              "page-cache squeeze: MemAvailable %d MiB < floor %d MiB, gave back %d MiB (%d MiB still pinned)%n",
              available >> 20, plan.floorBytes() >> 20, (now - target) >> 20, target >> 20);
        }
        TimeUnit.MILLISECONDS.sleep(WATCH_MS);
      } catch (InterruptedException e) {
        return;
      } catch (IOException | RuntimeException e) {
        if (!closed) {
          // Cannot watch any more, so cannot guarantee to yield: give everything back now.
          log.println(
              "page-cache squeeze: watchdog failed (" + e + "); releasing all pinned memory");
          releaseAll();
        }
        return;
      }
    }
  }

  private synchronized void releaseAll() {
    pinned.set(0);
    try {
      channel.close();
    } catch (IOException ignored) {
      // the delete below frees the pages either way
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      log.println(
          "page-cache squeeze: could not delete " + file + " (" + e + "); the guard process will");
    }
  }

  @Override
  public void close() {
    closed = true;
    watchdog.interrupt();
    try {
      watchdog.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    releaseAll();
    guard.destroy();
  }
}
