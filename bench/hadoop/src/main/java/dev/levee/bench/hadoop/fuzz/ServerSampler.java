package dev.levee.bench.hadoop.fuzz;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Watches the sponge server's JVM from outside: its direct and mapped buffer pools over JMX (the
 * numbers the JVM itself keeps, so no guess from RSS), and its resident set, threads and open file
 * descriptors from {@code /proc}. One sample every period, each tagged with the phase under way.
 */
final class ServerSampler implements AutoCloseable {
  /** One observation of the server. */
  record Sample(
      double seconds,
      String phase,
      long directBytes,
      long mappedBytes,
      long rssBytes,
      int threads,
      int fds) {}

  private final long pid;
  private final JMXConnector jmx;
  private final MBeanServerConnection mbeans;
  private final List<Sample> samples = new ArrayList<>();
  private final long start = System.nanoTime();
  private final Thread thread;
  private volatile String phase = "start";
  private volatile boolean stop;

  ServerSampler(long pid, int jmxPort, long periodMillis) throws Exception {
    this.pid = pid;
    this.jmx =
        JMXConnectorFactory.connect(
            new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + jmxPort + "/jmxrmi"));
    this.mbeans = jmx.getMBeanServerConnection();
    sample(); // fail here, not silently in the thread, if the server cannot be read
    this.thread =
        new Thread(
            () -> {
              while (!stop) {
                try {
                  sample();
                  Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                  return;
                } catch (Exception e) {
                  // the server died: the suite notices through the process
                  return;
                }
              }
            },
            "sponge-fuzz-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  void phase(String name) {
    phase = name;
  }

  String currentPhase() {
    return phase;
  }

  synchronized List<Sample> samples() {
    return List.copyOf(samples);
  }

  /** The largest sample of one measure over the whole run. */
  long peak(java.util.function.ToLongFunction<Sample> measure) {
    return samples().stream().mapToLong(measure).max().orElse(0);
  }

  private void sample() throws Exception {
    long direct = pool("direct");
    long mapped = pool("mapped");
    long rss = 0;
    int threads = 0;
    for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
      if (line.startsWith("VmRSS:")) {
        rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
      } else if (line.startsWith("Threads:")) {
        threads = Integer.parseInt(line.replaceAll("[^0-9]", ""));
      }
    }
    int fds;
    try (Stream<Path> s = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
      fds = (int) s.count();
    }
    Sample x =
        new Sample((System.nanoTime() - start) / 1e9, phase, direct, mapped, rss, threads, fds);
    synchronized (this) {
      samples.add(x);
    }
  }

  private long pool(String name) throws Exception {
    return ((Number)
            mbeans.getAttribute(
                new ObjectName("java.nio:type=BufferPool,name=" + name), "MemoryUsed"))
        .longValue();
  }

  @Override
  public void close() {
    stop = true;
    thread.interrupt();
    try {
      thread.join(2000);
      jmx.close();
    } catch (Exception e) {
      // the server is gone already
    }
  }
}
