package dev.levee.sponge.config;

import dev.levee.config.ConfigSource;

/**
 * What bounds a sponge server's work per peer and its memory, whatever the traffic: how long one
 * exchange may take, how many connections one peer address may hold, and how many chunk-sized
 * transfer buffers exist.
 */
public record ServerLimits(int frameTimeoutMillis, int maxConnectionsPerPeer, int transferBuffers) {

  static ServerLimits from(ConfigSource s) {
    return new ServerLimits(
        SpongeConf.FRAME_TIMEOUT_MS.from(s),
        SpongeConf.MAX_CONNECTIONS_PER_PEER.from(s),
        SpongeConf.TRANSFER_BUFFERS.from(s));
  }
}
