package dev.levee.sponge.hadoop;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.mapreduce.task.reduce.ExceptionReporter;

/**
 * The background thread that empties the in-memory shuffle buffer into SpongeFiles, one batch of
 * map outputs at a time, while fetchers keep fetching. Fetchers that find the buffer full wait in
 * {@link #awaitIdle()}, as they wait for stock's in-memory merger.
 */
final class InMemorySpiller<T> {
  private final Deque<List<T>> batches = new ArrayDeque<>();
  private final Consumer<List<T>> spill;
  private final ExceptionReporter errors;
  private final Thread thread;
  private int pending;
  private boolean closed;

  /**
   * {@code spill} merges one batch into a SpongeFile; a failure goes to {@code errors} and stops
   * the spiller.
   */
  InMemorySpiller(String name, Consumer<List<T>> spill, ExceptionReporter errors) {
    this.spill = spill;
    this.errors = errors;
    this.thread = new Thread(this::run, name);
    this.thread.setDaemon(true);
    this.thread.start();
  }

  synchronized void submit(List<T> batch) {
    if (closed || batch.isEmpty()) {
      return;
    }
    batches.addLast(batch);
    pending++;
    notifyAll();
  }

  synchronized void awaitIdle() throws InterruptedException {
    while (pending > 0) {
      wait();
    }
  }

  /** Waits for submitted batches, then stops the thread. */
  void close() throws InterruptedException {
    synchronized (this) {
      closed = true;
    }
    awaitIdle();
    thread.interrupt();
    thread.join();
  }

  private void run() {
    while (true) {
      List<T> batch;
      synchronized (this) {
        while (batches.isEmpty()) {
          if (closed) {
            return;
          }
          try {
            wait();
          } catch (InterruptedException e) {
            return;
          }
        }
        batch = batches.pollFirst();
      }
      try {
        spill.accept(batch);
      } catch (Throwable t) {
        errors.reportException(t);
        synchronized (this) {
          batches.clear();
          pending = 0;
          notifyAll();
        }
        return;
      }
      synchronized (this) {
        pending--;
        notifyAll();
      }
    }
  }
}
