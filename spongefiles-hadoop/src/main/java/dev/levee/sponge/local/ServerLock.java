package dev.levee.sponge.local;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The sponge server's exclusive hold on its pool, for its whole lifetime: a POSIX lock on {@code
 * server.lock} in the pool directory. Only one server can serve a pool (a second one would free the
 * first one's chunks and hand them to other tenants), and only the holder may create the pool
 * afresh: a task that finds {@code pool.meta} missing while a server holds this lock must not
 * re-create a pool that is still mapped. The kernel drops the lock when the server's process dies,
 * whatever killed it, so a crashed server never blocks its successor.
 *
 * <p>POSIX locks belong to a process, and closing <em>any</em> descriptor of the file drops them
 * all, so this JVM keeps one registry of the pools it holds and never opens a second descriptor on
 * a held lock file.
 */
public final class ServerLock implements Closeable {
  static final String FILE = "server.lock";

  /** Pool directories (absolute) this JVM holds, and their locks. */
  private static final Map<Path, ServerLock> HELD = new HashMap<>();

  private final Path dir;
  private final FileChannel channel;
  private final FileLock lock;

  private ServerLock(Path dir, FileChannel channel, FileLock lock) {
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the pool in {@code dir} for this server, or fails with a message naming the pool when
   * another server (in this or another process) holds it.
   */
  public static ServerLock acquire(PoolDirectory dir) throws IOException {
    synchronized (HELD) {
      if (HELD.containsKey(dir.path())) {
        throw heldBySomeoneElse(dir.path(), "in this JVM");
      }
      FileChannel ch = dir.open(FILE, true);
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (IOException | OverlappingFileLockException e) {
        ch.close();
        throw e;
      }
      if (lock == null) {
        ch.close(); // this JVM holds no lock on the file, so closing drops nothing of ours
        throw heldBySomeoneElse(dir.path(), "in another process");
      }
      ServerLock held = new ServerLock(dir.path(), ch, lock);
      HELD.put(dir.path(), held);
      return held;
    }
  }

  /** The pool directory this lock holds (absolute). */
  public Path directory() {
    return dir;
  }

  /** Whether any live process (this JVM included) holds the pool in {@code dir}. */
  static boolean heldByAnyone(PoolDirectory dir) throws IOException {
    synchronized (HELD) {
      if (HELD.containsKey(dir.path())) {
        return true;
      }
      FileChannel ch;
      try {
        ch = dir.open(FILE, false);
      } catch (NoSuchFileException e) {
        return false;
      }
      try (ch) {
        FileLock probe = ch.tryLock();
        if (probe == null) {
          return true;
        }
        probe.release();
        return false;
      }
    }
  }

  private static IOException heldBySomeoneElse(Path dir, String where) {
    return new IOException(
        "sponge pool "
            + dir
            + " is already served by another sponge server "
            + where
            + " (it holds "
            + dir.resolve(FILE)
            + "); a pool has exactly one server: stop the other one, or give this one its own"
            + " levee.sponge.local.pool.dir");
  }

  @Override
  public void close() throws IOException {
    synchronized (HELD) {
      if (HELD.remove(dir, this)) {
        try {
          lock.release();
        } finally {
          channel.close();
        }
      }
    }
  }
}
