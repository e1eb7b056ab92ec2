package dev.levee.sponge;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Recycles chunk-sized direct buffers between the files of one {@link SpongeFileSystem}, so that a
 * task spilling thousands of files does not churn direct memory (which is freed only by GC).
 */
final class ChunkBuffers {
  private final int chunkSize;
  private final int maxRetained;
  private final ConcurrentLinkedQueue<ByteBuffer> idle = new ConcurrentLinkedQueue<>();
  private final AtomicInteger idleCount = new AtomicInteger();

  ChunkBuffers(int chunkSize, int maxRetained) {
    this.chunkSize = chunkSize;
    this.maxRetained = maxRetained;
  }

  ByteBuffer take() {
    ByteBuffer b = idle.poll();
    if (b == null) {
      return ByteBuffer.allocateDirect(chunkSize);
    }
    idleCount.decrementAndGet();
    return b.clear();
  }

  void give(ByteBuffer b) {
    // Never adopt a view of shared memory (a local sponge chunk has the same capacity as a staging
    // buffer).
    if (b == null
        || b.capacity() != chunkSize
        || !b.isDirect()
        || b instanceof java.nio.MappedByteBuffer) {
      return;
    }
    if (idleCount.incrementAndGet() <= maxRetained) {
      idle.add(b);
    } else {
      idleCount.decrementAndGet();
    }
  }
}
