package dev.levee.sponge.client;

import dev.levee.sponge.protocol.Handshake;
import dev.levee.sponge.protocol.WireTls;

/**
 * Socket behaviour of a sponge client.
 *
 * @param connectTimeoutMillis how long to wait for a TCP connection to a server
 * @param readTimeoutMillis how long one reply may take before the server is treated as lost
 * @param maxChunkBytes the largest chunk a reply may carry (the cluster's chunk size); bigger
 *     replies are rejected
 * @param idleConnectionsPerServer connections kept open per server between calls
 * @param credential what each new connection authenticates with ({@link Handshake}), or null to
 *     stay unauthenticated
 * @param tls the TLS each new connection runs, or null for plaintext
 */
public record ClientSettings(
    int connectTimeoutMillis,
    int readTimeoutMillis,
    int maxChunkBytes,
    int idleConnectionsPerServer,
    Handshake.Credential credential,
    WireTls tls) {

  /** Unauthenticated plaintext connections. */
  public ClientSettings(
      int connectTimeoutMillis,
      int readTimeoutMillis,
      int maxChunkBytes,
      int idleConnectionsPerServer) {
    this(
        connectTimeoutMillis,
        readTimeoutMillis,
        maxChunkBytes,
        idleConnectionsPerServer,
        null,
        null);
  }

  /** The same settings, authenticating with {@code c} (null: none). */
  public ClientSettings withCredential(Handshake.Credential c) {
    return new ClientSettings(
        connectTimeoutMillis, readTimeoutMillis, maxChunkBytes, idleConnectionsPerServer, c, tls);
  }

  /** The same settings, over TLS {@code t} (null: plaintext). */
  public ClientSettings withTls(WireTls t) {
    return new ClientSettings(
        connectTimeoutMillis,
        readTimeoutMillis,
        maxChunkBytes,
        idleConnectionsPerServer,
        credential,
        t);
  }

  /**
   * Idle connections older than this are closed rather than reused, well before a server's idle
   * timeout.
   */
  public static final long MAX_IDLE_NANOS = 10_000_000_000L;

  /**
   * How often a client renews its owner lease with the servers holding its remote chunks; a
   * server's {@code levee.sponge.server.gc-peer-unreachable-grace-ms} must be a few times longer.
   */
  public static final long OWNER_LEASE_RENEW_MILLIS = 10_000L;

  public ClientSettings {
    if (connectTimeoutMillis <= 0 || readTimeoutMillis <= 0) {
      throw new IllegalArgumentException(
          "client timeouts must be positive, got connect="
              + connectTimeoutMillis
              + " ms, read="
              + readTimeoutMillis
              + " ms");
    }
    if (maxChunkBytes <= 0) {
      throw new IllegalArgumentException("max chunk bytes must be positive, got " + maxChunkBytes);
    }
    if (idleConnectionsPerServer < 0) {
      throw new IllegalArgumentException(
          "idle connections per server must be >= 0, got " + idleConnectionsPerServer);
    }
  }
}
