package dev.levee.sponge.server;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * Open connections per peer address, so that one host (a slowloris, a runaway client) can never
 * hold every connection slot of the server.
 */
final class PeerConnections {
  private final int maxPerPeer;
  private final Map<InetAddress, Integer> open = new HashMap<>();

  PeerConnections(int maxPerPeer) {
    if (maxPerPeer < 1) {
      throw new IllegalArgumentException("at least one connection per peer, got " + maxPerPeer);
    }
    this.maxPerPeer = maxPerPeer;
  }

  int maxPerPeer() {
    return maxPerPeer;
  }

  /** Counts a new connection from {@code peer}; false (and nothing counted) at the cap. */
  synchronized boolean tryOpen(InetAddress peer) {
    int n = open.getOrDefault(peer, 0);
    if (n >= maxPerPeer) {
      return false;
    }
    open.put(peer, n + 1);
    return true;
  }

  synchronized void close(InetAddress peer) {
    open.computeIfPresent(peer, (k, n) -> n <= 1 ? null : n - 1);
  }
}
