package dev.levee.bench.hadoop.median.suite;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The co-runner job started on another thread at a chosen moment of the measured job, and awaited
 * after it.
 */
final class ConcurrentCoRunner {
  /** Its wall clock and when it ran (System.nanoTime). */
  record Outcome(double seconds, long startNanos, long endNanos) {}

  private final Callable<Double> job;
  private CompletableFuture<Outcome> running;

  ConcurrentCoRunner(Callable<Double> job) {
    this.job = job;
  }

  synchronized boolean started() {
    return running != null;
  }

  synchronized void start() {
    if (running != null) {
      return;
    }
    running = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              long start = System.nanoTime();
              try {
                double seconds = job.call();
                running.complete(new Outcome(seconds, start, System.nanoTime()));
              } catch (Throwable e) {
                running.completeExceptionally(e);
              }
            },
            "median-co-runner");
    t.setDaemon(true);
    t.start();
  }

  /** Waits for the co-runner (starting it first if it never was). */
  Outcome await() throws Exception {
    start();
    try {
      return running.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception ex ? ex : e;
    }
  }
}
