package dev.levee.bench.disk;

import dev.levee.bench.sampling.Bracket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The emulated disk's counts sampled through a job, so each of its phases can be said to keep the
 * disk busy (near 1.0: the phase runs at the disk's speed) or not. One sample a second: each asks
 * the emulator for its counts (a signal and a small file), far below its own cost.
 */
public final class BusySampler implements AutoCloseable {
  private static final long PERIOD_MS = 1_000;

  /** One reading: wall time and the emulator's counts then. */
  record Sample(long atMillis, DiskCounts counts) {}

  /** What the disk did over a span: busy share of the span, and megabytes each way. */
  public record Span(double busy, double readMb, double writtenMb, long seeks) {
    public static final Span UNKNOWN = new Span(Double.NaN, Double.NaN, Double.NaN, -1);
  }

  private final List<Sample> samples = new ArrayList<>();
  private final EmulatedDisk disk;
  private final Thread thread;
  private volatile boolean running = true;

  private BusySampler(EmulatedDisk disk) {
    this.disk = disk;
    thread =
        new Thread(
            () -> {
              while (running) {
                try {
                  DiskCounts c = disk.counts();
                  synchronized (samples) {
                    samples.add(new Sample(System.currentTimeMillis(), c));
                  }
                  Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                  return;
                } catch (Exception e) {
                  // The emulator is gone: the spans after this are unknown, the job goes on.
                  return;
                }
              }
            },
            "emulated-disk-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  /** A sampler of {@code place}'s emulated disk; null when the place is the real disk. */
  public static BusySampler start(DiskPlace place) {
    return place.emulatedDisk() == null ? null : new BusySampler(place.emulatedDisk());
  }

  /**
   * What the disk did over [fromMillis, toMillis], from the samples around it. A span that ended
   * after the latest sample (asked right after a job, the last one's before the sampler's next
   * tick) gets a sample taken now, so the run's last phase is not left unknown.
   */
  public Span between(long fromMillis, long toMillis) {
    List<Sample> copy;
    synchronized (samples) {
      if (samples.isEmpty() || samples.get(samples.size() - 1).atMillis() < toMillis) {
        try {
          samples.add(new Sample(System.currentTimeMillis(), disk.counts()));
        } catch (IOException e) {
          // The emulator is gone: the span stays unknown.
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      copy = List.copyOf(samples);
    }
    return between(copy, fromMillis, toMillis);
  }

  /**
   * The last sample at or before {@code from} against the first at or after {@code to}: a span a
   * little wider than asked (up to a period each side), so busy is an underestimate by at most two
   * periods over the span.
   */
  static Span between(List<Sample> samples, long fromMillis, long toMillis) {
    Bracket<Sample> s = Bracket.around(samples, Sample::atMillis, fromMillis, toMillis);
    if (s == null) {
      return Span.UNKNOWN;
    }
    DiskCounts d = s.after().counts().minus(s.before().counts());
    return new Span(
        d.busyNanos() / 1e6 / (s.after().atMillis() - s.before().atMillis()),
        d.readBytes() / 1e6,
        d.writeBytes() / 1e6,
        d.seeks());
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
