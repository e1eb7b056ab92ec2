package dev.levee.sponge;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Frees deleted files' chunks off the caller's thread. A merge drains its runs one after another,
 * and freeing a run outside the local sponge costs a round trip per chunk, which the merge would
 * otherwise wait for. Stopping waits a bounded time for what is pending: the rest is left to the
 * sponge servers, whose garbage collector reclaims a finished task's chunks anyway.
 */
final class BackgroundFrees {
  /**
   * A file's chunks often sit on several servers: two threads overlap their round trips without
   * taking a task's cores from it.
   */
  private static final int THREADS = 2;

  private final ThreadPoolExecutor executor;
  private final AtomicInteger pending = new AtomicInteger();

  BackgroundFrees() {
    AtomicInteger n = new AtomicInteger();
    executor =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            10,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), // one small task per deleted file: no need to bound it
            r -> {
              Thread t = new Thread(r, "levee-sponge-free-" + n.incrementAndGet());
              t.setDaemon(true); // a task's JVM never waits for these to exit
              return t;
            });
    executor.allowCoreThreadTimeOut(true);
  }

  /**
   * Runs {@code free} in the background, or right here once {@link #stop} began (a file deleted
   * while its file system closes is still freed).
   */
  void submit(Runnable free) {
    pending.incrementAndGet();
    try {
      executor.execute(
          () -> {
            try {
              free.run();
            } finally {
              pending.decrementAndGet();
            }
          });
    } catch (RejectedExecutionException e) {
      try {
        free.run();
      } finally {
        pending.decrementAndGet();
      }
    }
  }

  /** Frees submitted and not yet done. */
  int pending() {
    return pending.get();
  }

  /**
   * Lets pending frees finish for at most {@code maxWaitMillis}, then interrupts those still
   * running.
   *
   * @return how many frees did not finish
   */
  int stop(long maxWaitMillis) {
    executor.shutdown();
    boolean interrupted = false;
    try {
      executor.awaitTermination(maxWaitMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      interrupted = true;
    }
    int left = pending.get();
    if (left > 0) {
      executor.shutdownNow();
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return left;
  }
}
