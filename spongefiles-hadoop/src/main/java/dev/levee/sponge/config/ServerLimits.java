package dev.levee.sponge.config;

import dev.levee.config.ConfigSource;

/**
 * What bounds a sponge server's work per peer and its memory, whatever the traffic: how long one
 * exchange may take, how many connections one peer address may hold (and how many of them may still
 * be in their handshake, which must end within a budget), and how many chunk-sized transfer buffers
 * exist.
 */
public record ServerLimits(
    int frameTimeoutMillis,
    int maxConnectionsPerPeer,
    int transferBuffers,
    int handshakeTimeoutMillis,
    int maxHandshakesPerPeer) {

  static ServerLimits from(ConfigSource s) {
    return new ServerLimits(
        SpongeConf.FRAME_TIMEOUT_MS.from(s),
        SpongeConf.MAX_CONNECTIONS_PER_PEER.from(s),
        SpongeConf.TRANSFER_BUFFERS.from(s),
        SpongeConf.HANDSHAKE_TIMEOUT_MS.from(s),
        SpongeConf.MAX_HANDSHAKES_PER_PEER.from(s));
  }
}
