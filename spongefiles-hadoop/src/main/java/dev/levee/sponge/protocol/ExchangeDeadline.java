package dev.levee.sponge.protocol;

import java.net.SocketTimeoutException;

/**
 * One deadline over a whole request and its reply. A per-wait timeout restarts at every byte, so a
 * peer that trickles one byte a second holds a connection (and a server thread) for as long as it
 * likes; this deadline starts when the exchange's first byte arrives and does not move.
 *
 * <p>Armed between exchanges (an idle connection waits under the socket timeout only), started by
 * the first byte read, ended when the reply is out.
 */
public final class ExchangeDeadline {
  private final long budgetNanos;
  private final int budgetMillis;
  private final String what;
  private boolean running;
  private long deadlineNanos;

  public ExchangeDeadline(int budgetMillis) {
    this(budgetMillis, null);
  }

  /** A deadline over something other than a request and its reply, named {@code what}. */
  ExchangeDeadline(int budgetMillis, String what) {
    this.what = what;
    if (budgetMillis <= 0) {
      throw new IllegalArgumentException(
          "exchange budget must be positive, got " + budgetMillis + " ms");
    }
    this.budgetMillis = budgetMillis;
    this.budgetNanos = budgetMillis * 1_000_000L;
  }

  /** Called on every byte read: the first one of an exchange starts the clock. */
  void onBytesRead() {
    if (!running) {
      running = true;
      deadlineNanos = System.nanoTime() + budgetNanos;
    }
  }

  /** The exchange is over (its reply was written): the next byte starts a new one. */
  public void end() {
    running = false;
  }

  /** Nanoseconds left, or {@code Long.MAX_VALUE} between exchanges. */
  long nanosLeft() {
    return running ? deadlineNanos - System.nanoTime() : Long.MAX_VALUE;
  }

  SocketTimeoutException expired(String doing) {
    if (what != null) {
      return new SocketTimeoutException(
          what + " not done within its " + budgetMillis + " ms deadline (" + doing + ")");
    }
    return new SocketTimeoutException(
        "request and reply not done within the "
            + budgetMillis
            + " ms exchange deadline ("
            + doing
            + ")");
  }
}
