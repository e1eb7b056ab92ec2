package dev.levee.sponge.testing;

import java.util.function.BooleanSupplier;

/** Waits for a state instead of sleeping for a guessed time: tests stay fast and deterministic. */
public final class Await {
  private static final long TIMEOUT_NANOS = 10_000_000_000L;

  private Await() {}

  /** Polls {@code condition} every 2 ms; fails naming {@code what} if it is not met within 10 s. */
  public static void until(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT_NANOS;
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not met within 10 s: " + what);
      }
      Thread.sleep(2);
    }
  }
}
