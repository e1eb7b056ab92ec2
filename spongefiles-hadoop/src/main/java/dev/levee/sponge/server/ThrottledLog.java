package dev.levee.sponge.server;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;

/**
 * Warnings that hostile or broken peers can trigger at will (a bad frame, a refused connection),
 * limited to one line per kind per period, with a count of what was left out. A fuzz run once wrote
 * 42,077 WARN lines; an attacker must not be able to fill the NodeManager's disk through our log.
 */
final class ThrottledLog {
  /** Where lines go: a logger's {@code warn}. */
  interface Sink {
    void warn(String format, Object... args);
  }

  private final Sink log;
  private final long periodNanos;
  private final LongSupplier nanoClock;
  private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();

  private static final class Window {
    long startNanos;
    long suppressed;
    boolean open;
  }

  ThrottledLog(Logger log, long period, TimeUnit unit) {
    this(log::warn, unit.toNanos(period), System::nanoTime);
  }

  ThrottledLog(Sink log, long periodNanos, LongSupplier nanoClock) {
    this.log = log;
    this.periodNanos = periodNanos;
    this.nanoClock = nanoClock;
  }

  /**
   * Logs {@code format} at WARN unless a line of the same {@code kind} was logged within the
   * period; the next line logged says how many were left out.
   */
  void warn(String kind, String format, Object... args) {
    long suppressed;
    Window w = windows.computeIfAbsent(kind, k -> new Window());
    synchronized (w) {
      long now = nanoClock.getAsLong();
      if (w.open && now - w.startNanos < periodNanos) {
        w.suppressed++;
        return;
      }
      suppressed = w.suppressed;
      w.open = true;
      w.startNanos = now;
      w.suppressed = 0;
    }
    if (suppressed == 0) {
      log.warn(format, args);
    } else {
      log.warn(
          format + " ({} more like this were not logged in the last {} s)",
          append(args, suppressed, TimeUnit.NANOSECONDS.toSeconds(periodNanos)));
    }
  }

  private static Object[] append(Object[] args, Object a, Object b) {
    Object[] out = java.util.Arrays.copyOf(args, args.length + 2);
    out[args.length] = a;
    out[args.length + 1] = b;
    return out;
  }
}
