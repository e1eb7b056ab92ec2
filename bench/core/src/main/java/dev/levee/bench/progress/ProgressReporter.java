package dev.levee.bench.progress;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Progress of one phase of a long run, printed to stderr as "phase: done/total (pct) rate ETA".
 *
 * <p>Thread-safe: workers call {@link #advance(long)} concurrently. Printing is throttled so that a
 * tight loop advancing per record costs one atomic add and one clock read per call, and at most one
 * line per interval is written. A line always goes out at {@link #finish()}, so a short phase still
 * leaves a trace.
 */
public final class ProgressReporter implements AutoCloseable {
  private final String phase;
  private final long total;
  private final String unit;
  private final PrintStream out;
  private final long intervalNanos;
  private final LongSupplier clock;
  private final long startNanos;
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong nextPrintNanos;
  private volatile boolean finished;

  public ProgressReporter(
      String phase,
      long total,
      String unit,
      PrintStream out,
      long intervalMillis,
      LongSupplier nanoClock) {
    this.phase = phase;
    this.total = total;
    this.unit = unit;
    this.out = out;
    this.intervalNanos = intervalMillis * 1_000_000L;
    this.clock = nanoClock;
    this.startNanos = nanoClock.getAsLong();
    this.nextPrintNanos = new AtomicLong(startNanos + intervalNanos);
  }

  /** A reporter on stderr printing at most every two seconds. */
  public static ProgressReporter start(String phase, long total, String unit) {
    return new ProgressReporter(phase, total, unit, System.err, 2_000, System::nanoTime);
  }

  public void advance(long amount) {
    long now = done.addAndGet(amount);
    long t = clock.getAsLong();
    long next = nextPrintNanos.get();
    // Only the thread that wins the CAS prints, so concurrent workers never interleave lines.
    if (t >= next && nextPrintNanos.compareAndSet(next, t + intervalNanos)) {
      out.println(line(now, t));
    }
  }

  public long done() {
    return done.get();
  }

  public void finish() {
    if (!finished) {
      finished = true;
      out.println(line(done.get(), clock.getAsLong()) + " done");
    }
  }

  @Override
  public void close() {
    finish();
  }

  String line(long doneNow, long nowNanos) {
    double seconds = Math.max(1e-9, (nowNanos - startNanos) / 1e9);
    double rate = doneNow / seconds;
    StringBuilder b = new StringBuilder(phase).append(": ").append(human(doneNow));
    if (total > 0) {
      b.append('/')
          .append(human(total))
          .append(' ')
          .append(unit)
          .append(String.format(Locale.ROOT, " (%.1f%%)", 100.0 * doneNow / total));
    } else {
      b.append(' ').append(unit);
    }
    b.append(", ")
        .append(rate >= 10 ? human((long) rate) : String.format(Locale.ROOT, "%.2f", rate))
        .append(' ')
        .append(unit)
        .append("/s");
    b.append(String.format(Locale.ROOT, ", elapsed %s", duration(seconds)));
    if (total > 0 && doneNow < total && rate > 0) {
      b.append(", ETA ").append(duration((total - doneNow) / rate));
    }
    return b.toString();
  }

  private static String human(long n) {
    if (n >= 10_000_000_000L) {
      return String.format(Locale.ROOT, "%.1fG", n / 1e9);
    } else if (n >= 10_000_000L) {
      return String.format(Locale.ROOT, "%.1fM", n / 1e6);
    } else if (n >= 100_000L) {
      return String.format(Locale.ROOT, "%.1fk", n / 1e3);
    }
    return Long.toString(n);
  }

  private static String duration(double seconds) {
    long s = Math.round(seconds);
    if (s < 60) {
      return String.format(Locale.ROOT, "%.1fs", seconds);
    }
    return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
  }
}
