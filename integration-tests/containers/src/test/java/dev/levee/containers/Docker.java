package dev.levee.containers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The docker command line, run as a child process. The CLI negotiates its API version down to the
 * engine's (Debian's 20.10 engine speaks 1.41), needs no image for a reaper, and is what an
 * operator would type; a Java client library would have to be pinned and have its reaper turned
 * off.
 */
final class Docker {
  /** What a finished command printed and returned. */
  record Result(int exitCode, String out, String err) {
    Result orThrow(List<String> command) {
      if (exitCode != 0) {
        throw new IllegalStateException(
            "`"
                + String.join(" ", command)
                + "` exited "
                + exitCode
                + ": "
                + err.strip()
                + " "
                + tail(out));
      }
      return this;
    }

    private static String tail(String s) {
      return s.length() > 4000 ? "..." + s.substring(s.length() - 4000) : s;
    }
  }

  private Docker() {}

  /** Whether an engine answers (`docker info`), within 20 s. */
  static boolean engineReachable() {
    try {
      return run(20, List.of("docker", "info", "--format", "{{.ServerVersion}}")).exitCode() == 0;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Runs {@code docker <args>}, fails unless it exits 0 within {@code timeoutSeconds}. */
  static String docker(long timeoutSeconds, String... args) {
    List<String> command = command(args);
    return run(timeoutSeconds, command).orThrow(command).out();
  }

  /** Runs {@code docker <args>} and returns whatever happened (no exception on a non-zero exit). */
  static Result tryDocker(long timeoutSeconds, String... args) {
    return run(timeoutSeconds, command(args));
  }

  private static List<String> command(String... args) {
    List<String> command = new ArrayList<>();
    command.add("docker");
    command.addAll(List.of(args));
    return command;
  }

  /** Runs a command; a command still running after the timeout is killed and reported as 124. */
  static Result run(long timeoutSeconds, List<String> command) {
    try {
      Path out = Files.createTempFile("docker", ".out");
      Path err = Files.createTempFile("docker", ".err");
      try {
        Process p =
            new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
          p.destroyForcibly().waitFor();
          return new Result(
              124,
              Files.readString(out),
              "timed out after " + timeoutSeconds + " s; " + Files.readString(err));
        }
        return new Result(
            p.exitValue(),
            Files.readString(out, StandardCharsets.UTF_8),
            Files.readString(err, StandardCharsets.UTF_8));
      } finally {
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
      }
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + command, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + command, e);
    }
  }
}
