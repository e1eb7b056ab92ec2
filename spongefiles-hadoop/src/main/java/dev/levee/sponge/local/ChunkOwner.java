package dev.levee.sponge.local;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The process that holds a chunk: its pid and the host it runs on. Stored in the pool's metadata so
 * that the sponge server can tell orphaned chunks from live ones (pid check for local owners, a
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

  /** This JVM as a chunk owner on {@code host}. */
  public static ChunkOwner currentProcess(String host) {
    return new ChunkOwner(ProcessHandle.current().pid(), host);
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
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
  }

  @Override
  public String toString() {
    return "pid " + pid + "@" + host;
  }
}
