package dev.levee.bench.disk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The emulator's executable, built from {@code bench/emulated-disk} (Go, with go-fuse) when missing
 * or older than its sources. Go is the language there because go-fuse talks to /dev/fuse itself: no
 * libfuse or fusermount to install, and its request loop costs a fraction of a core.
 */
final class EmulatorBinary {
  static final String SOURCES = "bench/emulated-disk";
  private static final long BUILD_TIMEOUT_S = 600;

  private EmulatorBinary() {}

  /** Why the emulator cannot run on this machine, or empty if it can. */
  static Optional<String> unavailable() {
    if (!Files.isReadable(Path.of("/dev/fuse")) || !Files.isWritable(Path.of("/dev/fuse"))) {
      return Optional.of("the emulated disk needs /dev/fuse (read and write)");
    }
    if (!"root".equals(System.getProperty("user.name"))) {
      return Optional.of(
          "the emulated disk mounts without fusermount, which needs root (user is "
              + System.getProperty("user.name")
              + ")");
    }
    if (go().isEmpty()) {
      return Optional.of("the emulated disk is built with Go 1.26 or later: no 'go' on the PATH");
    }
    return Optional.empty();
  }

  /** The executable under {@code root}, built first if its sources changed. */
  static Path ensureBuilt(Path root) throws IOException, InterruptedException {
    Path src = root.resolve(SOURCES);
    if (!Files.isRegularFile(src.resolve("go.mod"))) {
      throw new IOException("no emulated-disk sources at " + src);
    }
    Path bin = src.resolve("target/emulated-disk");
    if (Files.isExecutable(bin)
        && Files.getLastModifiedTime(bin).compareTo(newestSource(src)) >= 0) {
      return bin;
    }
    String go =
        go().orElseThrow(() -> new IOException(unavailable().orElse("no 'go' on the PATH")));
    Files.createDirectories(bin.getParent());
    Path tmp = Files.createTempFile(bin.getParent(), "emulated-disk", ".tmp");
    Path log = bin.resolveSibling("build.log");
    Process p =
        new ProcessBuilder(go, "build", "-o", tmp.toString(), ".")
            .directory(src.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(BUILD_TIMEOUT_S, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IOException("building the emulated disk took over " + BUILD_TIMEOUT_S + " s");
    }
    if (p.exitValue() != 0) {
      Files.deleteIfExists(tmp);
      throw new IOException(
          "building the emulated disk failed (go build in " + src + "):\n" + Files.readString(log));
    }
    // Two runs building at once each move a whole file into place.
    Files.move(tmp, bin, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    return bin;
  }

  private static FileTime newestSource(Path src) throws IOException {
    try (Stream<Path> files = Files.list(src)) {
      FileTime newest = FileTime.fromMillis(0);
      for (Path f : (Iterable<Path>) files::iterator) {
        String n = f.getFileName().toString();
        if (n.endsWith(".go") || n.equals("go.mod") || n.equals("go.sum")) {
          FileTime t = Files.getLastModifiedTime(f);
          if (t.compareTo(newest) > 0) {
            newest = t;
          }
        }
      }
      return newest;
    }
  }

  static Optional<String> go() {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : (path + ":/usr/local/go/bin").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "go"))) {
        return Optional.of(Path.of(dir, "go").toString());
      }
    }
    return Optional.empty();
  }

  static List<String> command(Path bin, Path backing, Path mount, DiskModel model, Path stats) {
    return List.of(
        bin.toString(),
        "--backing",
        backing.toString(),
        "--mount",
        mount.toString(),
        "--bandwidth-mb",
        Double.toString(model.bandwidthMb()),
        "--seek-ms",
        Double.toString(model.seekMs()),
        "--write-cache-mb",
        Integer.toString(model.writeCacheMb()),
        "--stats",
        stats.toString());
  }
}
