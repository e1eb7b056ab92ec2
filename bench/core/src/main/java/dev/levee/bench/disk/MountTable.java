package dev.levee.bench.disk;

import dev.levee.bench.cli.BadArgumentException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The mounts of {@code /proc/mounts}, to tell a real disk from memory: a "disk" benchmark on tmpfs
 * would measure memcpy and make the paper's gap vanish.
 */
public final class MountTable {
  /** File systems whose files live in RAM. */
  public static final Set<String> MEMORY_FILE_SYSTEMS =
      Set.of("tmpfs", "ramfs", "devtmpfs", "hugetlbfs");

  public record Mount(String device, String mountPoint, String type) {}

  private final List<Mount> mounts;

  MountTable(List<Mount> mounts) {
    this.mounts = List.copyOf(mounts);
  }

  public static MountTable current() throws IOException {
    return parse(Files.readString(Path.of("/proc/mounts"), StandardCharsets.UTF_8));
  }

  /**
   * Parses the {@code /proc/mounts} format: device, mount point (octal escapes for blanks), type,
   * options.
   */
  public static MountTable parse(String text) {
    List<Mount> out = new ArrayList<>();
    for (String line : text.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f.length >= 3) {
        out.add(new Mount(f[0], unescape(f[1]), f[2]));
      }
    }
    return new MountTable(out);
  }

  /**
   * The mount holding {@code absolutePath}: the longest mount point that is a prefix of it (the
   * last one wins a tie).
   */
  public Mount mountOf(Path absolutePath) {
    Mount best = null;
    for (Mount m : mounts) {
      Path point = Path.of(m.mountPoint());
      if (absolutePath.startsWith(point)
          && (best == null || point.getNameCount() >= Path.of(best.mountPoint()).getNameCount())) {
        best = m;
      }
    }
    if (best == null) {
      throw new IllegalStateException(
          "no mount holds " + absolutePath + " (is /proc/mounts readable?)");
    }
    return best;
  }

  /**
   * Returns the mount a disk benchmark directory sits on, refusing memory-backed ones.
   *
   * @param option the option the directory came from, named in the error
   */
  public Mount requireDisk(String option, Path dir) {
    Path resolved = resolveExistingPrefix(dir);
    Mount m = mountOf(resolved);
    if (MEMORY_FILE_SYSTEMS.contains(m.type())) {
      throw new BadArgumentException(
          "--"
              + option
              + " "
              + dir
              + " is on "
              + m.type()
              + " (mounted at "
              + m.mountPoint()
              + "): that is memory, not a disk; give a directory on a disk-backed file system");
    }
    return m;
  }

  /**
   * The real path of the longest existing ancestor (the directory may not exist yet; symlinks are
   * followed).
   */
  /** Whether some file system is mounted exactly at {@code dir}. */
  public boolean isMountPoint(Path dir) {
    String target = dir.toAbsolutePath().normalize().toString();
    return mounts.stream().anyMatch(m -> m.mountPoint().equals(target));
  }

  /** Whether {@code dir} is a mount point now. */
  public static boolean isMounted(Path dir) throws IOException {
    return current().isMountPoint(dir);
  }

  private static Path resolveExistingPrefix(Path dir) {
    Path p = dir.toAbsolutePath().normalize();
    Path missing = Path.of("");
    while (p != null && !Files.exists(p)) {
      missing = p.getFileName().resolve(missing);
      p = p.getParent();
    }
    if (p == null) {
      return dir.toAbsolutePath().normalize();
    }
    try {
      return p.toRealPath().resolve(missing);
    } catch (IOException e) {
      return p.resolve(missing);
    }
  }

  private static String unescape(String s) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 4 <= s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
        b.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
        i += 3;
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
