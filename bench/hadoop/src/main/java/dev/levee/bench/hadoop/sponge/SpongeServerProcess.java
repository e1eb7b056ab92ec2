package dev.levee.bench.hadoop.sponge;

import dev.levee.sponge.config.SpongeConf;
import dev.levee.sponge.protocol.NodeNames;
import dev.levee.sponge.protocol.SpongeServerAddress;
import dev.levee.sponge.server.SpongeServerDaemon;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A sponge server as its own JVM ({@link SpongeServerDaemon}, the standalone deployment), on
 * loopback with its own pool: one "node" of the benchmark. Stopped with SIGTERM (the daemon frees
 * its pool cleanly), SIGKILL if it lingers.
 */
public final class SpongeServerProcess implements AutoCloseable {
  private static final String READY = "sponge-server listening ";

  private final String name;
  private final Process process;
  private final SpongeServerAddress address;

  private SpongeServerProcess(String name, Process process, SpongeServerAddress address) {
    this.name = name;
    this.process = process;
    this.address = address;
  }

  /**
   * Starts a daemon serving {@code poolBytes} of {@code chunkSize} chunks from {@code poolDir} and
   * waits until it listens.
   *
   * @param stderr where the daemon's stderr (its log) goes
   */
  static SpongeServerProcess start(
      String name,
      Path poolDir,
      long poolBytes,
      int chunkSize,
      Path stderr,
      long startTimeoutSeconds)
      throws IOException {
    int chunks = (int) (poolBytes / chunkSize);
    return start(
        name,
        poolDir,
        poolBytes,
        chunkSize,
        stderr,
        startTimeoutSeconds,
        List.of("-Xmx256m", "-XX:+UseSerialGC"),
        // The whole pool is the benchmark's: no quota below a batch.
        java.util.Map.of(SpongeConf.QUOTA_CHUNKS_PER_APP.name(), Integer.toString(chunks)));
  }

  /**
   * As above, with the server JVM's own flags and extra sponge settings ({@code -Dkey=value} on the
   * daemon's command line, after the pool's and the loopback addresses).
   */
  public static SpongeServerProcess start(
      String name,
      Path poolDir,
      long poolBytes,
      int chunkSize,
      Path stderr,
      long startTimeoutSeconds,
      List<String> jvmFlags,
      java.util.Map<String, String> settings)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmFlags);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(SpongeServerDaemon.class.getName());
    cmd.add("-D" + SpongeConf.LOCAL_POOL_DIR.name() + "=" + poolDir);
    cmd.add("-D" + SpongeConf.LOCAL_POOL_SIZE.name() + "=" + poolBytes);
    cmd.add("-D" + SpongeConf.CHUNK_SIZE.name() + "=" + chunkSize);
    cmd.add("-D" + SpongeConf.OWNER_HOST.name() + "=" + SpongeMicroSuite.LOOPBACK);
    cmd.add("-D" + SpongeConf.BIND_HOST.name() + "=" + SpongeMicroSuite.LOOPBACK);
    cmd.add("-D" + SpongeConf.ADVERTISED_HOST.name() + "=" + SpongeMicroSuite.LOOPBACK);
    cmd.add("-D" + SpongeConf.PORT.name() + "=0");
    // The micro benchmark's clients are raw clients without a job: unauthenticated unless the
    // arm's settings (below, which win) turn authentication on.
    cmd.add("-D" + SpongeConf.AUTH_REQUIRED.name() + "=false");
    settings.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
    Process p = pb.start();
    try {
      String ready = awaitReady(p, startTimeoutSeconds);
      String node = ready.substring(READY.length()).split(" ")[0];
      return new SpongeServerProcess(
          name, p, NodeNames.serverOf(node, SpongeConf.PORT.defaultValue()));
    } catch (IOException | RuntimeException e) {
      stop(p);
      throw new IOException(
          "sponge server '"
              + name
              + "' did not start: "
              + e.getMessage()
              + "; its log ends:\n"
              + tail(stderr, 20),
          e);
    }
  }

  public SpongeServerAddress address() {
    return address;
  }

  /** Whether the server's JVM is still running (false after a crash). */
  public boolean alive() {
    return process.isAlive();
  }

  public long pid() {
    return process.pid();
  }

  @Override
  public void close() {
    stop(process);
  }

  @Override
  public String toString() {
    return "sponge server '" + name + "' pid " + process.pid() + " at " + address;
  }

  private static String awaitReady(Process p, long timeoutSeconds) throws IOException {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<String> ready =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                for (String line; (line = out.readLine()) != null; ) {
                  if (line.startsWith(READY)) {
                    return line;
                  }
                }
                return null;
              } catch (IOException e) {
                return null;
              }
            });
    String line;
    try {
      line = ready.get(timeoutSeconds, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new IOException("no '" + READY.trim() + "' line within " + timeoutSeconds + " s");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while waiting for the server");
    } catch (ExecutionException e) {
      throw new IOException(e.getCause());
    }
    if (line == null) {
      throw new IOException(
          "it exited (status " + (p.isAlive() ? "?" : p.exitValue()) + ") before listening");
    }
    // Keep draining stdout so a chatty daemon never blocks on a full pipe.
    Thread drain =
        new Thread(
            () -> {
              try {
                while (out.readLine() != null) {
                  // discard
                }
              } catch (IOException ignored) {
                // the process ended
              }
            },
            "sponge-server-stdout");
    drain.setDaemon(true);
    drain.start();
    return line;
  }

  private static String tail(Path log, int lines) {
    try {
      List<String> all = java.nio.file.Files.readAllLines(log, StandardCharsets.UTF_8);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(cannot read " + log + ": " + e + ")";
    }
  }

  private static void stop(Process p) {
    if (!p.isAlive()) {
      return;
    }
    p.destroy();
    try {
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        p.waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
