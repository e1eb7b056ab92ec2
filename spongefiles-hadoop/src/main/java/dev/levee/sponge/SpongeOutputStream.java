package dev.levee.sponge;

import dev.levee.sponge.tier.ChunkTier;
import dev.levee.sponge.tier.LocalMemoryTier;
import dev.levee.sponge.tier.StoredChunk;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The write side of a {@link SpongeFile}. Each chunk's buffer is chosen when its first byte
 * arrives: if the local sponge has a free chunk, that chunk itself is the buffer (the task's bytes
 * are copied once, straight into shared memory); otherwise a one-chunk staging buffer is filled
 * and, when full, handed to a per-file lane on the I/O executor, which places it in the remote,
 * disk or DFS tier while the task produces the next chunk. The lane issues chunks one at a time, in
 * order, which keeps disk appends in order and lets the remote tier prefer servers already used; a
 * remote chunk leaves the lane once its bytes are sent, so several chunks can be on the wire to a
 * server at once (pipelined on one connection). At most {@code maxInFlight} chunks are queued,
 * being written or awaiting their server's answer; the next hand-off waits for one to finish
 * (back-pressure). A failed background write is reported by the next {@code write} or by {@code
 * close}.
 */
final class SpongeOutputStream extends OutputStream {
  private final SpongeFile file;
  private final LocalMemoryTier local;
  private final ChunkPlacer placer;
  private final SpongeMetrics metrics;
  private final Executor executor;
  private final ChunkBuffers buffers;
  private final BlockingQueue<ByteBuffer> spare;

  /**
   * Permits = chunks that may be queued or being written; taken before a hand-off, returned when it
   * is done.
   */
  private final Semaphore inFlight;

  private final int maxInFlight;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** The chunk being filled, or null between chunks. */
  private ByteBuffer fill;

  /** When {@link #fill} is a view of a local sponge chunk: its index; else -1. */
  private int fillLocalChunk = -1;

  private long fillAllocationNanos;

  /**
   * A staging buffer ready for the next non-local chunk (taken lazily: all-local files never need
   * one).
   */
  private ByteBuffer staging;

  private CompletableFuture<Void> lane = CompletableFuture.completedFuture(null);
  private long written;
  private boolean closed;

  SpongeOutputStream(
      SpongeFile file,
      LocalMemoryTier local,
      ChunkPlacer placer,
      SpongeMetrics metrics,
      Executor executor,
      ChunkBuffers buffers,
      int maxInFlight) {
    this.file = file;
    this.local = local;
    this.placer = placer;
    this.metrics = metrics;
    this.executor = executor;
    this.buffers = buffers;
    this.spare = new ArrayBlockingQueue<>(maxInFlight);
    this.inFlight = new Semaphore(maxInFlight);
    this.maxInFlight = maxInFlight;
  }

  @Override
  public void write(int b) throws IOException {
    ensureWritable();
    if (fill == null) {
      beginChunk();
    }
    fill.put((byte) b);
    written++;
    if (!fill.hasRemaining()) {
      endChunk();
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    ensureWritable();
    while (len > 0) {
      if (fill == null) {
        beginChunk();
      }
      int n = Math.min(len, fill.remaining());
      fill.put(b, off, n);
      off += n;
      len -= n;
      written += n;
      if (!fill.hasRemaining()) {
        endChunk();
      }
    }
  }

  /** Bytes written so far. */
  long written() {
    return written;
  }

  /**
   * Ends the last partial chunk, waits for every background write and seals the file for reading.
   */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    try {
      rethrowFailure();
      if (fill != null && fill.position() > 0) {
        endChunk();
      }
      awaitLane();
      for (ChunkTier t : placer.tiers()) {
        t.finishWrites();
      }
      rethrowFailure();
      closed = true;
      file.writeFinished(written);
    } catch (IOException | RuntimeException e) {
      closed = true;
      file.writeFailed(e);
      throw e;
    } finally {
      awaitLane(); // a failed close may leave writes queued; they hold buffers we are about to
      // recycle
      releaseBuffers();
    }
  }

  /**
   * Stops writing without sealing (the file is being deleted): waits for in-flight writes so that
   * they can be freed.
   */
  void abort() {
    if (closed) {
      return;
    }
    closed = true;
    failure.compareAndSet(
        null, new IOException("sponge file " + file.name() + " was deleted while being written"));
    awaitLane();
    for (ChunkTier t : placer.tiers()) {
      try {
        t.finishWrites();
      } catch (IOException ignored) {
        // The file is going away; releaseAll deletes what was written.
      }
    }
    releaseBuffers(); // a local chunk being filled is already the file's: releaseAll frees it
  }

  private void beginChunk() {
    long start = System.nanoTime();
    if (local != null) {
      Optional<LocalMemoryTier.Allocation> chunk = local.allocate();
      long nanos = System.nanoTime() - start;
      if (chunk.isPresent()) {
        fill = chunk.get().view();
        fillLocalChunk = chunk.get().index();
        fillAllocationNanos = nanos;
        metrics.writeAllocation(nanos);
        return;
      }
      metrics.fellBack(Tier.LOCAL_MEMORY, nanos, false);
    }
    fill = staging != null ? staging : buffers.take();
    staging = null;
    fillLocalChunk = -1;
    metrics.writeAllocation(System.nanoTime() - start);
  }

  private void endChunk() throws IOException {
    int seq = file.reserveSlot();
    if (fillLocalChunk >= 0) {
      int length = fill.position();
      file.fillSlot(seq, new StoredChunk.Local(fillLocalChunk, length));
      metrics.placed(Tier.LOCAL_MEMORY, length, fillAllocationNanos);
      fill = null;
      fillLocalChunk = -1;
      return;
    }
    fill.flip();
    long waitStart = System.nanoTime();
    try {
      inFlight.acquire();
      metrics.writePermitWait(System.nanoTime() - waitStart);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      // The chunk is neither placed nor queued: the file is incomplete from here on.
      InterruptedIOException ie =
          new InterruptedIOException("interrupted while waiting for a sponge chunk write");
      failure.compareAndSet(null, ie);
      throw ie;
    }
    ByteBuffer data = fill;
    fill = null;
    // With a permit held at most maxInFlight - 1 chunks are out, so buffers never exceed
    // maxInFlight + 1.
    ByteBuffer recycled = spare.poll();
    staging = recycled != null ? recycled.clear() : null;
    // The lane issues chunks one at a time and in order; a remote chunk leaves it once its bytes
    // are sent, so the
    // next chunk can follow on the same connection before the first is answered. The permit and the
    // buffer are
    // given back when the chunk is placed, not when the lane moves on.
    lane =
        lane.handleAsync(
            (ignored, laneError) -> {
              CompletableFuture<StoredChunk> placed;
              try {
                placed =
                    failure.get() == null
                        ? placer.placeAsync(data, seq, executor)
                        : CompletableFuture.completedFuture(null);
              } catch (Throwable t) {
                placed = CompletableFuture.failedFuture(t);
              }
              placed.whenComplete(
                  (chunk, error) -> {
                    try {
                      if (error != null) {
                        failure.compareAndSet(
                            null,
                            error instanceof CompletionException && error.getCause() != null
                                ? error.getCause()
                                : error);
                      } else if (chunk != null) {
                        file.fillSlot(seq, chunk);
                      }
                    } finally {
                      spare.add(data);
                      inFlight.release();
                    }
                  });
              return null;
            },
            executor);
    rethrowFailure();
  }

  /**
   * Waits until every chunk handed off is placed (or failed): the lane has issued them all, and all
   * permits are back.
   */
  private void awaitLane() {
    long start = System.nanoTime();
    boolean interrupted = false;
    while (true) {
      try {
        lane.get();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // the lane holds our buffers: it must finish before they are reused
      } catch (ExecutionException e) {
        break; // failures are recorded in `failure` by the lane itself
      }
    }
    // Chunks still on the wire hold permits (and buffers, and maybe a remote chunk to free): wait
    // for them too.
    inFlight.acquireUninterruptibly(maxInFlight);
    inFlight.release(maxInFlight);
    metrics.writePermitWait(System.nanoTime() - start);
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void ensureWritable() throws IOException {
    if (closed) {
      throw new IOException("sponge file " + file.name() + " is closed for writing");
    }
    rethrowFailure();
  }

  private void rethrowFailure() throws IOException {
    Throwable t = failure.get();
    if (t != null) {
      throw new IOException(
          "sponge file " + file.name() + ": a chunk write failed: " + t.getMessage(), t);
    }
  }

  private void releaseBuffers() {
    if (fillLocalChunk < 0) {
      buffers.give(fill);
    }
    fill = null;
    fillLocalChunk = -1;
    buffers.give(staging);
    staging = null;
    for (ByteBuffer b; (b = spare.poll()) != null; ) {
      buffers.give(b);
    }
  }
}
