package dev.levee.sponge.server;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.SocketChannel;

/**
 * Closes a connection from another thread (an eviction, the handshake cut) so that its handler
 * wakes at once. Closing the socket alone does not: the handler waits in a selector's {@code
 * select}, and a closed channel only cancels its key there, so a silent peer's handler slept on
 * until its socket or exchange timeout (30-60 s) and its thread with it. Once the handler has its
 * {@code TimedChannel}, closing that closes the selectors, which ends the wait.
 */
final class ConnectionCloser {
  private final SocketChannel socket;
  private volatile Closeable channel;
  private volatile boolean closed;

  ConnectionCloser(SocketChannel socket) {
    this.socket = socket;
  }

  /** The handler's channel, which a close from now on (or one that came first) also closes. */
  void attach(Closeable handlerChannel) {
    channel = handlerChannel;
    if (closed) {
      closeQuietly(handlerChannel);
    }
  }

  void close() {
    closed = true;
    closeQuietly(socket);
    Closeable ch = channel;
    if (ch != null) {
      closeQuietly(ch);
    }
  }

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }
}
