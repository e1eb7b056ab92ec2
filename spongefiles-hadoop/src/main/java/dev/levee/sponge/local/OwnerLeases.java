package dev.levee.sponge.local;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Liveness of local chunk owners, independent of pid namespaces: each owner holds a shared POSIX
 * lock on {@code owner-<id>.lease} in the pool directory for as long as it lives, and the kernel
 * drops the lock when the process dies, whatever namespace it ran in. The garbage collector asks
 * "is anyone holding this lease?" with a non-blocking exclusive lock attempt, so a thread id, a pid
 * of another namespace or a recycled pid can never pass for a live owner. The file holds the
 * owner's YARN container id (empty outside YARN), so that the NodeManager's "container stopped"
 * signal can free that container's chunks at once.
 *
 * <p>POSIX locks belong to the process and closing any descriptor of a file drops them all, so a
 * JVM keeps one descriptor per lease file (shared by every pool object in it, counted) and probes
 * its own leases without opening another.
 */
final class OwnerLeases {
  static final String PREFIX = "owner-";
  static final String SUFFIX = ".lease";

  private static final Map<Path, Held> HELD = new HashMap<>();

  private record Held(FileChannel channel, FileLock lock, int[] users) {}

  private OwnerLeases() {}

  static Path file(Path dir, long ownerId) {
    return dir.resolve(PREFIX + ownerId + SUFFIX);
  }

  /**
   * Takes (or counts one more use of) this JVM's lease for {@code ownerId}; release with {@link
   * #release}.
   */
  static void hold(PoolDirectory dir, long ownerId, String containerId) throws IOException {
    Path path = file(dir.path(), ownerId);
    synchronized (HELD) {
      Held h = HELD.get(path);
      if (h != null) {
        h.users()[0]++;
        return;
      }
      while (true) {
        FileChannel ch = dir.open(path.getFileName().toString(), true);
        FileLock lock;
        try {
          lock = ch.lock(0, Long.MAX_VALUE, true);
        } catch (IOException | RuntimeException e) {
          ch.close();
          throw e;
        }
        // The collector deletes a stale lease only while holding it exclusively; if it did so
        // while this process waited, the lock is on an unlinked file: start again.
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
          ch.close();
          continue;
        }
        byte[] id =
            containerId == null ? new byte[0] : containerId.getBytes(StandardCharsets.UTF_8);
        try {
          if (ch.size() == 0 && id.length > 0) {
            ch.write(ByteBuffer.wrap(id), 0);
          }
        } catch (IOException | RuntimeException e) {
          ch.close(); // drops the lock too
          throw e;
        }
        HELD.put(path, new Held(ch, lock, new int[] {1}));
        return;
      }
    }
  }

  /** Gives back one use of this JVM's lease; the last one deletes the file and drops the lock. */
  static void release(Path dir, long ownerId) {
    Path path = file(dir, ownerId);
    synchronized (HELD) {
      Held h = HELD.get(path);
      if (h == null || --h.users()[0] > 0) {
        return;
      }
      HELD.remove(path);
      try {
        Files.deleteIfExists(path);
      } catch (IOException ignored) {
        // a stale lease file is deleted by the collector
      }
      try {
        h.channel().close();
      } catch (IOException ignored) {
        // closing drops the lock either way
      }
    }
  }

  /**
   * Whether a live process (this JVM included) holds the lease of {@code ownerId}. When nobody
   * does, the stale lease file is deleted (under an exclusive lock, see {@link #hold}).
   */
  static boolean isHeld(PoolDirectory dir, long ownerId) throws IOException {
    Path path = file(dir.path(), ownerId);
    synchronized (HELD) {
      if (HELD.containsKey(path)) {
        return true;
      }
      FileChannel ch;
      try {
        ch = dir.open(path.getFileName().toString(), false);
      } catch (NoSuchFileException e) {
        return false;
      }
      try (ch) {
        FileLock probe = ch.tryLock(0, Long.MAX_VALUE, false);
        if (probe == null) {
          return true;
        }
        Files.deleteIfExists(path);
        probe.release();
        return false;
      }
    }
  }

  /** Owner ids whose lease names {@code containerId} (their process may be gone already). */
  static Set<Long> ownersOf(Path dir, Predicate containerMatches) throws IOException {
    Set<Long> ids = new HashSet<>();
    try (DirectoryStream<Path> leases = Files.newDirectoryStream(dir, PREFIX + "*" + SUFFIX)) {
      for (Path p : leases) {
        String name = p.getFileName().toString();
        long id;
        try {
          id = Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length()));
        } catch (NumberFormatException e) {
          continue;
        }
        String container;
        try {
          container = Files.readString(p, StandardCharsets.UTF_8).trim();
        } catch (NoSuchFileException e) {
          continue;
        }
        if (!container.isEmpty() && containerMatches.test(container)) {
          ids.add(id);
        }
      }
    }
    return ids;
  }

  /** Which container ids to select in {@link #ownersOf}. */
  interface Predicate {
    boolean test(String containerId);
  }
}
