package dev.levee.bench.hadoop.sponge;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Everything a run must undo (child processes, background threads, pinned memory, files), undone in
 * reverse order when the run ends, fails, or the JVM is stopped (Ctrl-C, SIGTERM) through a
 * shutdown hook: a benchmark must never leave a sponge server or a pool behind on a shared machine.
 */
final class Cleanup implements AutoCloseable {
  interface Step {
    void run() throws Exception;
  }

  private final Deque<Step> steps = new ArrayDeque<>();
  private final Thread hook = new Thread(this::runAll, "sponge-micro-cleanup");
  private final java.io.PrintStream err;

  Cleanup(java.io.PrintStream err) {
    this.err = err;
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** Registers {@code resource} to be closed at the end; returns it. */
  synchronized <T extends AutoCloseable> T add(T resource) {
    steps.push(resource::close);
    return resource;
  }

  synchronized void addStep(Step step) {
    steps.push(step);
  }

  @Override
  public void close() {
    runAll();
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // already shutting down: the hook is running or ran
    }
  }

  private synchronized void runAll() {
    while (!steps.isEmpty()) {
      try {
        steps.pop().run();
      } catch (Exception e) {
        err.println("sponge-micro: cleanup step failed (continuing): " + e);
      }
    }
  }
}
