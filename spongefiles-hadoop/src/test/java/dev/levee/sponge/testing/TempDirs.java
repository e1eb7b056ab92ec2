package dev.levee.sponge.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;

/** Pool directories on the real tmpfs, removed after each test. */
public final class TempDirs {
  private TempDirs() {}

  public static Path newShmDir(String label) throws IOException {
    Path base =
        Files.isDirectory(Path.of("/dev/shm"))
            ? Path.of("/dev/shm")
            : Path.of(System.getProperty("java.io.tmpdir"));
    return Files.createDirectories(
        base.resolve("levee-sponge-test-" + label + "-" + UUID.randomUUID()));
  }

  public static void deleteRecursively(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths
          .sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
