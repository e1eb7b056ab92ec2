package dev.levee.bench.hadoop.sponge;

import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.OptionalInt;

/**
 * Table 1's "local shared memory": allocate a chunk in the node's pool and copy the buffer into the
 * mapping, the way a task spills without any server round trip. Reading back copies the chunk out
 * of the mapping.
 */
final class SharedMemorySink implements ChunkSink {
  private final SharedMemoryPool pool;
  private final ChunkOwner owner;
  private final int[] held;
  private final ByteBuffer readBuffer;
  private int heldCount;

  SharedMemorySink(SharedMemoryPool pool, ChunkOwner owner, int batch) {
    this.pool = pool;
    this.owner = owner;
    this.held = new int[batch];
    this.readBuffer = ByteBuffer.allocateDirect(pool.chunkSize());
  }

  @Override
  public int batchCapacity() {
    return held.length;
  }

  @Override
  public void write(int slot, ByteBuffer chunk) throws IOException {
    OptionalInt c = pool.allocate(owner);
    if (c.isEmpty()) {
      throw new IOException(
          "sponge pool "
              + pool.directory()
              + " has no free chunk for slot "
              + slot
              + " ("
              + pool.freeChunks()
              + " free of "
              + pool.chunkCount()
              + "); another process is using it");
    }
    held[slot] = c.getAsInt();
    heldCount = Math.max(heldCount, slot + 1);
    pool.write(held[slot], chunk);
  }

  @Override
  public ByteBuffer read(int slot) {
    readBuffer.clear();
    pool.read(held[slot], pool.chunkSize(), readBuffer);
    return readBuffer.flip();
  }

  @Override
  public void freeBatch() {
    for (int i = 0; i < heldCount; i++) {
      pool.free(held[i], owner);
    }
    heldCount = 0;
    Arrays.fill(held, -1);
  }

  @Override
  public void close() {
    freeBatch();
  }
}
