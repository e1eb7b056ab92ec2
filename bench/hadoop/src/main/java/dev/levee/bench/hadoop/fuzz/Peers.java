package dev.levee.bench.hadoop.fuzz;

import dev.levee.sponge.protocol.SpongeServerAddress;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * Connections from many loopback addresses (Linux routes all of 127/8 to lo), so that the attack
 * looks like many hosts and the server's per-peer cap does not stop it alone: the per-host and
 * global limits are both exercised. The canary keeps 127.0.0.1 to itself.
 */
final class Peers {
  private Peers() {}

  /** A socket from 127.0.0.{@code host} (2..254) to the server. */
  static Socket connect(SpongeServerAddress server, int host, int timeoutMillis)
      throws IOException {
    if (host < 2 || host > 254) {
      throw new IllegalArgumentException("loopback host byte must be 2..254, was " + host);
    }
    Socket s = new Socket();
    try {
      s.bind(
          new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) host}), 0));
      s.connect(new InetSocketAddress(server.host(), server.port()), timeoutMillis);
      return s;
    } catch (IOException e) {
      s.close();
      throw e;
    }
  }
}
