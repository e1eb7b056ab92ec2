package dev.levee.sponge.server;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Open connections per peer address, so that one host (a slowloris, a runaway client) can never
 * hold every connection slot of the server.
 */
final class PeerConnections {
  private final int maxPerPeer;
  private final int maxHandshakesPerPeer;
  private final Map<InetAddress, Integer> open = new HashMap<>();

  /** Connections that have not finished their first request: the ones a slow peer can hold. */
  private final Map<InetAddress, Integer> handshaking = new HashMap<>();

  PeerConnections(int maxPerPeer, int maxHandshakesPerPeer) {
    if (maxPerPeer < 1 || maxHandshakesPerPeer < 1) {
      throw new IllegalArgumentException(
          "at least one connection per peer, got " + maxPerPeer + " and " + maxHandshakesPerPeer);
    }
    this.maxPerPeer = maxPerPeer;
    this.maxHandshakesPerPeer = maxHandshakesPerPeer;
  }

  int maxHandshakesPerPeer() {
    return maxHandshakesPerPeer;
  }

  /** Whether {@code peer} is at its cap of connections still in their handshake. */
  synchronized boolean handshakesFull(InetAddress peer) {
    return handshaking.getOrDefault(peer, 0) >= maxHandshakesPerPeer;
  }

  int maxPerPeer() {
    return maxPerPeer;
  }

  /** Counts a new connection from {@code peer}; false (and nothing counted) at the cap. */
  synchronized boolean tryOpen(InetAddress peer) {
    int n = open.getOrDefault(peer, 0);
    int h = handshaking.getOrDefault(peer, 0);
    if (n >= maxPerPeer || h >= maxHandshakesPerPeer) {
      return false;
    }
    open.put(peer, n + 1);
    handshaking.put(peer, h + 1);
    return true;
  }

  /** How many of {@code peer}'s connections have not finished their first request. */
  synchronized int handshaking(InetAddress peer) {
    return handshaking.getOrDefault(peer, 0);
  }

  /**
   * The address holding the most connections still in their handshake, if it holds more than {@code
   * than}: the one whose slot a newcomer with {@code than} such connections may take.
   */
  synchronized Optional<InetAddress> mostHandshakingAbove(int than) {
    InetAddress most = null;
    int max = than;
    for (Map.Entry<InetAddress, Integer> e : handshaking.entrySet()) {
      if (e.getValue() > max) {
        max = e.getValue();
        most = e.getKey();
      }
    }
    return Optional.ofNullable(most);
  }

  /** One of {@code peer}'s connections finished its first request, or was cut before it did. */
  synchronized void handshakeOver(InetAddress peer) {
    handshaking.computeIfPresent(peer, (k, n) -> n <= 1 ? null : n - 1);
  }

  synchronized void close(InetAddress peer) {
    open.computeIfPresent(peer, (k, n) -> n <= 1 ? null : n - 1);
  }
}
