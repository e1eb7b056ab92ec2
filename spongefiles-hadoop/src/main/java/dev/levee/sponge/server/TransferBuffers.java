package dev.levee.sponge.server;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's chunk-sized direct buffers, a fixed number shared by every connection. A READ copies
 * its chunk out of the pool into one (so that a chunk freed meanwhile is never sent) and gives it
 * back once the reply is written. Buffers are created on first need and then reused, never left to
 * the garbage collector: the server's direct memory is at most {@code count × size}, whatever the
 * number of connections. (Before, each connection allocated its own, and 10,000 short connections
 * took a server to 4 GiB of direct memory.)
 */
final class TransferBuffers {
  private final int count;
  private final int size;
  private final Semaphore permits;
  private final ConcurrentLinkedQueue<ByteBuffer> idle = new ConcurrentLinkedQueue<>();
  private final AtomicInteger allocated = new AtomicInteger();

  TransferBuffers(int count, int size) {
    if (count < 1 || size < 1) {
      throw new IllegalArgumentException(
          "need at least one buffer of at least one byte, got " + count + " of " + size);
    }
    this.count = count;
    this.size = size;
    this.permits = new Semaphore(count, true);
  }

  /**
   * A cleared buffer of {@link #size()} bytes, waiting up to {@code timeoutMillis} for one to be
   * given back; null if none was.
   */
  ByteBuffer acquire(long timeoutMillis) throws InterruptedException {
    if (!permits.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
      return null;
    }
    ByteBuffer b = idle.poll();
    if (b == null) {
      // A permit with no idle buffer: fewer than count exist yet.
      allocated.incrementAndGet();
      b = ByteBuffer.allocateDirect(size);
    }
    return b.clear();
  }

  /** Gives back a buffer from {@link #acquire}; it must not be used afterwards. */
  void release(ByteBuffer b) {
    idle.add(b);
    permits.release();
  }

  int count() {
    return count;
  }

  int size() {
    return size;
  }

  /** Direct bytes these buffers hold now: never more than {@code count × size}. */
  long allocatedBytes() {
    return (long) allocated.get() * size;
  }
}
