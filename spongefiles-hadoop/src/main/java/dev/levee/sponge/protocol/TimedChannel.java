package dev.levee.sponge.protocol;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;

/**
 * Blocking reads and writes with a timeout on a socket channel. Chunks move between the socket and
 * {@link ByteBuffer}s (a mapped pool chunk, a direct staging buffer) with no copy through a {@code
 * byte[]}, which only a channel can do; but a blocking channel ignores {@code SO_TIMEOUT}, so the
 * channel is put in non-blocking mode and waits go through a selector with a deadline. Reads and
 * writes have a selector each, so one thread may read replies while another writes requests on the
 * same connection.
 *
 * <p>With TLS ({@link #connectTls}, {@link #acceptTls}) the same reads and writes go through a
 * {@link TlsLink} under the same waits; callers see no difference.
 */
public final class TimedChannel implements Closeable {
  private final SocketChannel channel;
  private final int timeoutMillis;
  private final Selector readSelector;
  private final Selector writeSelector;
  private ExchangeDeadline exchange;

  /** Null on a plaintext connection; set by the handshake, before any other thread uses this. */
  private TlsLink tls;

  /** Bytes {@link #acceptTls} read to tell TLS from plaintext, served before the channel's. */
  private ByteBuffer unread;

  /**
   * @param timeoutMillis how long one read or write may wait for the peer before {@link
   *     SocketTimeoutException}
   */
  public TimedChannel(SocketChannel channel, int timeoutMillis) throws IOException {
    if (timeoutMillis <= 0) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeoutMillis + " ms");
    }
    this.channel = channel;
    this.timeoutMillis = timeoutMillis;
    channel.configureBlocking(false);
    Selector r = Selector.open();
    Selector w;
    try {
      w = Selector.open();
      channel.register(r, SelectionKey.OP_READ);
      channel.register(w, SelectionKey.OP_WRITE);
    } catch (IOException | RuntimeException e) {
      r.close();
      throw e;
    }
    this.readSelector = r;
    this.writeSelector = w;
  }

  /**
   * Bounds every request-and-reply on this channel by {@code deadline} as well as by the per-wait
   * timeout (a server's defence against peers that trickle bytes).
   */
  public void bound(ExchangeDeadline deadline) {
    this.exchange = deadline;
  }

  public SocketChannel channel() {
    return channel;
  }

  /**
   * Fills {@code dst} completely.
   *
   * @return false when the stream ended cleanly before the first byte and {@code eofAllowed}
   * @throws EOFException when the stream ends inside {@code dst} (or before it, if not {@code
   *     eofAllowed})
   * @throws SocketTimeoutException when the peer sent nothing for the timeout
   */
  public boolean readFully(ByteBuffer dst, boolean eofAllowed) throws IOException {
    boolean first = true;
    while (dst.hasRemaining()) {
      int n = tls != null ? tls.read(dst) : readPlain(dst);
      if (n < 0) {
        if (first && eofAllowed) {
          return false;
        }
        throw new EOFException("stream ended with " + dst.remaining() + " bytes still expected");
      }
      if (n == 0) {
        await(readSelector, "read");
      } else {
        first = false;
        if (exchange != null) {
          exchange.onBytesRead();
        }
      }
    }
    return true;
  }

  /**
   * Reads and drops {@code bytes} bytes through {@code scratch} (whose contents are overwritten).
   */
  public void skip(long bytes, ByteBuffer scratch) throws IOException {
    while (bytes > 0) {
      scratch.clear().limit((int) Math.min(scratch.capacity(), bytes));
      readFully(scratch, false);
      bytes -= scratch.position();
    }
  }

  /**
   * Writes every remaining byte of {@code srcs} with gathering writes (one system call for a header
   * and a body).
   */
  public void writeFully(ByteBuffer... srcs) throws IOException {
    long left = 0;
    for (ByteBuffer b : srcs) {
      left += b.remaining();
    }
    if (tls != null && left > 0) {
      tls.write(srcs);
      return;
    }
    while (left > 0) {
      long n = channel.write(srcs);
      if (n == 0) {
        await(writeSelector, "write");
      }
      left -= n;
    }
  }

  /**
   * Makes this a TLS client connection: runs the handshake, all of it within {@code budgetMillis}.
   *
   * @throws PlaintextReplyException when the server answered in plaintext (no TLS there, or a BUSY
   *     refusal)
   * @throws javax.net.ssl.SSLException when the handshake fails (an untrusted certificate)
   */
  public void connectTls(SSLEngine engine, int budgetMillis) throws IOException {
    handshake(engine, ByteBuffer.allocate(0), startedDeadline(budgetMillis));
  }

  /**
   * Makes this a TLS server connection if the peer opens with a TLS handshake, within {@code
   * budgetMillis}.
   *
   * @return false when the peer speaks plaintext (or closed at once): the channel stays plaintext,
   *     with the bytes already looked at still to be read, so the caller can answer in kind
   */
  public boolean acceptTls(SSLEngine engine, int budgetMillis) throws IOException {
    ByteBuffer first = ByteBuffer.allocate(3);
    ExchangeDeadline outer = exchange;
    ExchangeDeadline deadline = startedDeadline(budgetMillis);
    exchange = deadline;
    try {
      if (!readFully(first, true)) {
        return false;
      }
    } finally {
      exchange = outer;
    }
    first.flip();
    if (!startsTlsHandshake(first, 0)) {
      unread = first;
      return false;
    }
    handshake(engine, first, deadline);
    return true;
  }

  /**
   * Whether the bytes at {@code at} open a TLS handshake record (type 22, version 3.x). A sponge
   * frame would open so only with a length prefix over 350 MB.
   */
  static boolean startsTlsHandshake(ByteBuffer b, int at) {
    return b.limit() - at >= 3
        && b.get(at) == 22
        && b.get(at + 1) == 3
        && b.get(at + 2) >= 1
        && b.get(at + 2) <= 4;
  }

  private void handshake(SSLEngine engine, ByteBuffer alreadyRead, ExchangeDeadline deadline)
      throws IOException {
    ExchangeDeadline outer = exchange;
    exchange = deadline;
    try {
      TlsLink link = new TlsLink(engine, channel, new LinkWaits(), alreadyRead);
      link.handshake();
      tls = link;
    } finally {
      exchange = outer;
    }
  }

  private static ExchangeDeadline startedDeadline(int budgetMillis) {
    ExchangeDeadline d = new ExchangeDeadline(budgetMillis, "TLS handshake");
    d.onBytesRead();
    return d;
  }

  private int readPlain(ByteBuffer dst) throws IOException {
    if (unread == null || !unread.hasRemaining()) {
      return channel.read(dst);
    }
    int n = Math.min(unread.remaining(), dst.remaining());
    dst.put(unread.slice(unread.position(), n));
    unread.position(unread.position() + n);
    return n;
  }

  /** The link's waits are this channel's. */
  private final class LinkWaits implements TlsLink.Waits {
    @Override
    public void readable() throws IOException {
      await(readSelector, "read");
    }

    @Override
    public void writable() throws IOException {
      await(writeSelector, "write");
    }

    @Override
    public void progress() {
      // A record arriving a byte at a time must not hold the connection past the deadline.
      ExchangeDeadline d = exchange;
      if (d != null) {
        d.onBytesRead();
      }
    }
  }

  private void await(Selector selector, String what) throws IOException {
    long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
    while (true) {
      long left = (deadline - System.nanoTime()) / 1_000_000L;
      if (exchange != null) {
        long exchangeLeft = exchange.nanosLeft();
        if (exchangeLeft <= 0) {
          throw exchange.expired(what);
        }
        left = Math.min(left, Math.max(1, exchangeLeft / 1_000_000L));
      }
      if (left <= 0) {
        throw new SocketTimeoutException(
            "no progress on " + what + " for " + timeoutMillis + " ms");
      }
      int ready;
      try {
        ready = selector.select(left);
        selector.selectedKeys().clear();
      } catch (ClosedSelectorException e) {
        // close() from another thread (a client shutting down, a server stopping) ends the wait at
        // once
        throw new AsynchronousCloseException();
      }
      if (ready > 0) {
        return;
      }
      if (!channel.isOpen()) {
        throw new AsynchronousCloseException();
      }
      if (Thread.currentThread().isInterrupted()) {
        throw new InterruptedIOException("interrupted while waiting to " + what);
      }
    }
  }

  /**
   * Closes the channel and both selectors, which also wakes a thread waiting in a read or write.
   */
  @Override
  public void close() {
    TlsLink link = tls;
    if (link != null) {
      link.closeQuietly();
    }
    closeQuietly(channel);
    closeQuietly(readSelector);
    closeQuietly(writeSelector);
  }

  private static void closeQuietly(Closeable c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // abandoning it either way
    }
  }
}
