package dev.levee.sponge.server;

/**
 * What a sponge server exposes over JMX, as {@code dev.levee.sponge:type=SpongeServer,port=<port>}.
 */
public interface SpongeServerMetricsMBean {
  int getChunkSize();

  int getChunksTotal();

  /** Chunks in use on this node, by local tasks and remote clients alike. */
  int getChunksUsed();

  int getChunksFree();

  /** Chunks this server holds for remote clients. */
  int getRemoteChunksHeld();

  long getBytesIn();

  long getBytesOut();

  long getAllocations();

  /**
   * FREE_SPACE requests answered: the tracker's polls, and the probe of every task that attaches to
   * this node's sponge.
   */
  long getFreeSpaceRequests();

  /** Allocations answered "no room" because the pool was full. */
  long getRejectionsPoolFull();

  /** Allocations answered "no room" because the application's quota on this server was used up. */
  long getRejectionsQuota();

  /** Requests refused for a missing or wrong capability. */
  long getCapabilityDenials();

  long getProtocolErrors();

  long getGcReclaimedChunks();

  long getGcRuns();

  int getOpenConnections();

  // --- Under load (issue 13).

  /** Connections refused with BUSY: over max-connections, or over the cap for their address. */
  long getConnectionsRefused();

  /** Exchanges cut at the frame deadline (a request trickled in, or a reply not taken). */
  long getExchangesTimedOut();

  /**
   * Connections still in their handshake closed to give their slot to a peer address holding fewer
   * such connections, when every slot was taken (issue 28, S2).
   */
  long getHandshakesEvicted();

  /** Direct bytes held by the transfer buffers: at most transfer-buffers × chunk size. */
  long getTransferBufferBytes();

  /** Handshakes that failed, and requests refused for want of the right authentication. */
  long getAuthenticationFailures();

  /** Cluster-derived application secrets granted to tasks of this node (GRANT_SECRET). */
  long getSecretsGranted();
}
