package dev.levee.bench.hadoop.themis;

import dev.levee.bench.sampling.Bracket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The whole machine's CPU from {@code /proc/stat}, sampled through a job, so each phase can be told
 * CPU-bound (busy near 1.0 of all cores) or waiting on the disk (iowait) when it runs far below the
 * disk's bandwidth. Every process of the mini cluster (HDFS, YARN, the task JVMs) shares these
 * cores, so the machine's figure is the one that bounds a phase, not one task's.
 */
final class CpuSampler implements AutoCloseable {
  private static final Path STAT = Path.of("/proc/stat");
  private static final long PERIOD_MS = 200;

  /** One reading: wall time, and jiffies busy (user, nice, system, irq, softirq), iowait, all. */
  record Sample(long atMillis, long busy, long iowait, long total) {}

  /** The share of all cores' time a phase spent busy and in iowait; NaN when unknown. */
  record Share(double busy, double iowait) {
    static final Share UNKNOWN = new Share(Double.NaN, Double.NaN);
  }

  private final List<Sample> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  private CpuSampler() {
    thread =
        new Thread(
            () -> {
              while (running) {
                Sample s = read();
                if (s == null) {
                  return;
                }
                synchronized (samples) {
                  samples.add(s);
                }
                try {
                  Thread.sleep(PERIOD_MS);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "themis-cpu-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  static CpuSampler start() {
    return new CpuSampler();
  }

  /** The share of [fromMillis, toMillis] the machine's cores were busy and waiting on I/O. */
  Share between(long fromMillis, long toMillis) {
    List<Sample> copy;
    synchronized (samples) {
      copy = List.copyOf(samples);
    }
    return between(copy, fromMillis, toMillis);
  }

  /** The last sample at or before {@code from} against the first at or after {@code to}. */
  static Share between(List<Sample> samples, long fromMillis, long toMillis) {
    Bracket<Sample> s = Bracket.around(samples, Sample::atMillis, fromMillis, toMillis);
    if (s == null || s.after().total() <= s.before().total()) {
      return Share.UNKNOWN;
    }
    Sample a = s.before();
    Sample b = s.after();
    double total = b.total() - a.total();
    return new Share((b.busy() - a.busy()) / total, (b.iowait() - a.iowait()) / total);
  }

  /** Parses the aggregate "cpu" line; null where /proc/stat cannot be read (not Linux). */
  static Sample parse(long atMillis, String cpuLine) {
    String[] f = cpuLine.trim().split("\\s+");
    if (f.length < 8 || !f[0].equals("cpu")) {
      return null;
    }
    long user = Long.parseLong(f[1]);
    long nice = Long.parseLong(f[2]);
    long system = Long.parseLong(f[3]);
    long idle = Long.parseLong(f[4]);
    long iowait = Long.parseLong(f[5]);
    long irq = Long.parseLong(f[6]);
    long softirq = Long.parseLong(f[7]);
    long steal = f.length > 8 ? Long.parseLong(f[8]) : 0;
    long busy = user + nice + system + irq + softirq;
    return new Sample(atMillis, busy, iowait, busy + idle + iowait + steal);
  }

  private static Sample read() {
    try {
      String first = Files.readAllLines(STAT).get(0);
      return parse(System.currentTimeMillis(), first);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
