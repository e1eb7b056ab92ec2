package dev.levee.bench.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The commit a result was measured at, with "-dirty" when tracked files differ from it in content.
 * Runs with GIT_OPTIONAL_LOCKS=0, so asking never takes the index lock or rewrites anything in a
 * shared work tree.
 */
public final class GitRevision {
  private GitRevision() {}

  public static String of(Path repoRoot) {
    String head = run(repoRoot, List.of("git", "rev-parse", "HEAD"));
    if (head == null || head.isEmpty()) {
      return "unknown";
    }
    // diff, not diff-index: diff-index trusts the index's file stats, so a file merely touched
    // since the last
    // commit (a rebuilt tree, a copy) counted as changed and clean runs were recorded as dirty.
    String clean = run(repoRoot, List.of("git", "diff", "--quiet", "HEAD", "--"));
    return clean == null ? head + "-dirty" : head;
  }

  /** Trimmed stdout, or null when the command fails or exits non-zero. */
  private static String run(Path dir, List<String> command) {
    try {
      ProcessBuilder pb =
          new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(false);
      pb.environment().put("GIT_OPTIONAL_LOCKS", "0");
      pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      Process p = pb.start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      return p.exitValue() == 0 ? out : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
