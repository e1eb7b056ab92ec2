package dev.levee.sponge.local;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The process that holds a chunk: its owner id (its pid, or in a YARN container an id derived from
 * the container id, see {@link #selfId()}) and the host it runs on. Stored in the pool's metadata
 * so that the sponge server can tell orphaned chunks from live ones (pid check for local owners, a
 * question to the owner's server for remote ones).
 *
 * <p>The host is stored in a fixed-size metadata entry, so its UTF-8 form is limited to {@link
 * #MAX_HOST_BYTES} bytes (the DNS limit for a full name). A pid of 0 is reserved: it marks a free
 * entry.
 */
public record ChunkOwner(long pid, String host) {

  /**
   * Longest host name a metadata entry can hold, in UTF-8 bytes (the DNS limit for a fully
   * qualified name).
   */
  public static final int MAX_HOST_BYTES = 253;

  public ChunkOwner {
    Objects.requireNonNull(host, "host");
    if (pid <= 0) {
      throw new IllegalArgumentException("chunk owner pid must be positive, got " + pid);
    }
    if (host.isEmpty()) {
      throw new IllegalArgumentException("chunk owner host must not be empty");
    }
    int bytes = host.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > MAX_HOST_BYTES) {
      throw new IllegalArgumentException(
          "chunk owner host must be at most "
              + MAX_HOST_BYTES
              + " UTF-8 bytes, got "
              + bytes
              + ": "
              + host);
    }
  }

  /**
   * Owner ids at or above this are not pids: they name a process in a YARN container (see {@link
   * #selfId()}). Linux pids stay below 2^22.
   */
  public static final long CONTAINER_ID_BASE = 1L << 62;

  private static final String CONTAINER_ID = System.getenv("CONTAINER_ID");
  private static final long SELF_ID = ownerIdOf(CONTAINER_ID, ProcessHandle.current().pid());

  /** This JVM as a chunk owner on {@code host}. */
  public static ChunkOwner currentProcess(String host) {
    return new ChunkOwner(SELF_ID, host);
  }

  /**
   * This JVM's owner id: its pid, or, in a YARN container (env {@code CONTAINER_ID}), an id derived
   * from the container id and the pid. A pid means nothing outside its pid namespace (the YARN
   * Docker runtime gives every container its own, so two containers' tasks may share a pid); the
   * container id is unique on the cluster. Liveness never depends on the id being a pid: it is
   * judged by the owner's lease in the pool (see the pool's owner leases).
   */
  public static long selfId() {
    return SELF_ID;
  }

  /** The YARN container this JVM runs in, if any (env {@code CONTAINER_ID}). */
  public static String containerIdOrNull() {
    return CONTAINER_ID == null || CONTAINER_ID.isBlank() ? null : CONTAINER_ID.trim();
  }

  static long ownerIdOf(String containerId, long pid) {
    if (containerId == null || containerId.isBlank()) {
      return pid;
    }
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256")
              .digest((containerId.trim() + "/" + pid).getBytes(StandardCharsets.UTF_8));
      long h = ByteBuffer.wrap(d).getLong();
      return CONTAINER_ID_BASE | (h & (CONTAINER_ID_BASE - 1));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * The name this node goes by in owner entries when none is configured: the canonical host name,
   * or the loopback name when the host cannot resolve itself. Tasks and the sponge server must use
   * the same function (or the same configured name) so that the server recognises local owners.
   */
  public static String localHostName() {
    try {
      return InetAddress.getLocalHost().getCanonicalHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  /**
   * Whether this owner's pid still names a live process on this machine. Only meaningful for owners
   * whose {@link #host()} is this machine; a pid reused by an unrelated process reads as alive (the
   * chunk is then kept until that process exits too, which wastes memory but never frees a live
   * owner's chunk).
   */
  public boolean isAliveOnThisHost() {
    return pid < CONTAINER_ID_BASE
        && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)
        && !isThreadOfAnotherProcess(pid);
  }

  /**
   * A thread id looks like a live pid to {@link ProcessHandle} ({@code /proc/<tid>} exists); its
   * {@code Tgid} (the process it belongs to) tells them apart.
   */
  private static boolean isThreadOfAnotherProcess(long id) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(id), "status"))) {
        if (line.startsWith("Tgid:")) {
          return Long.parseLong(line.substring(5).trim()) != id;
        }
      }
    } catch (IOException | RuntimeException e) {
      // no /proc (not Linux) or the process just exited: ProcessHandle's answer stands
    }
    return false;
  }

  @Override
  public String toString() {
    return "pid " + pid + "@" + host;
  }
}
