package dev.levee.piranha;

import java.util.concurrent.TimeUnit;

/** A point in time a wait must not pass, with the words that explain it when it does. */
public record Deadline(long nanos, long timeoutMillis, String what) {

  public static Deadline in(long millis, String what) {
    return new Deadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis), millis, what);
  }

  public long remainingMillis() {
    return Math.max(0, TimeUnit.NANOSECONDS.toMillis(nanos - System.nanoTime()));
  }

  public boolean passed() {
    return System.nanoTime() - nanos >= 0;
  }

  /** "the children of t0-1 did not register within 60000 ms". */
  public String expiredMessage() {
    return what + " within " + timeoutMillis + " ms";
  }
}
