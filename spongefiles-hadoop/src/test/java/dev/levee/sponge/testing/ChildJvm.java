package dev.levee.sponge.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A separate JVM running a test main class on the test classpath, read line by line. Killed with
 * SIGKILL.
 */
public final class ChildJvm implements AutoCloseable {
  private final Process process;
  private final BufferedReader out;

  private ChildJvm(Process process) {
    this.process = process;
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  public static ChildJvm start(Class<?> main, Path stderr, String... args) throws IOException {
    return start(main, stderr, java.util.Map.of(), args);
  }

  /** {@link #start(Class, Path, String...)} with extra environment variables for the child. */
  public static ChildJvm start(
      Class<?> main, Path stderr, java.util.Map<String, String> env, String... args)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx64m");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd);
    pb.environment().putAll(env);
    pb.redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()));
    return new ChildJvm(pb.start());
  }

  public long pid() {
    return process.pid();
  }

  /** Next line of the child's stdout; fails if the child ends first. */
  public String readLine() throws IOException {
    String line = out.readLine();
    if (line == null) {
      throw new IOException(
          "child "
              + pid()
              + " ended without output (exit "
              + (process.isAlive() ? "still running" : process.exitValue())
              + ")");
    }
    return line;
  }

  /** Reads lines until one starts with {@code prefix}, returning it. */
  public String awaitLine(String prefix) throws IOException {
    while (true) {
      String line = readLine();
      if (line.startsWith(prefix)) {
        return line;
      }
    }
  }

  public int waitFor(long seconds) throws InterruptedException {
    if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
      throw new IllegalStateException(
          "child " + pid() + " did not finish within " + seconds + " s");
    }
    return process.exitValue();
  }

  /** SIGKILL (Process.destroyForcibly on Linux), then reap so the pid is really gone. */
  public void kill9() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  @Override
  public void close() throws InterruptedException {
    if (process.isAlive()) {
      kill9();
    }
  }
}
