package dev.levee.sponge.tier;

import dev.levee.sponge.Tier;
import dev.levee.sponge.local.ChunkOwner;
import dev.levee.sponge.local.SharedMemoryPool;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A file's chunks in this node's shared-memory pool: allocation is a metadata update, the copy a
 * memcpy.
 */
public final class LocalMemoryTier implements ChunkTier {
  private final SharedMemoryPool pool;
  private final ChunkOwner owner;
  private final List<Integer> held = new ArrayList<>();

  public LocalMemoryTier(SharedMemoryPool pool, ChunkOwner owner) {
    this.pool = pool;
    this.owner = owner;
  }

  @Override
  public Tier tier() {
    return Tier.LOCAL_MEMORY;
  }

  /** A chunk taken from the pool for this file, with a view to fill it in place. */
  public record Allocation(int index, ByteBuffer view) {}

  /**
   * Takes a chunk for this file and returns a view of it to be filled directly (saving the staging
   * copy); empty when the pool is full. The chunk counts as this file's from now on and is freed by
   * {@link #releaseAll()}.
   */
  public Optional<Allocation> allocate() {
    OptionalInt chunk = pool.allocate(owner);
    if (chunk.isEmpty()) {
      return Optional.empty();
    }
    synchronized (held) {
      held.add(chunk.getAsInt());
    }
    return Optional.of(new Allocation(chunk.getAsInt(), pool.chunkBuffer(chunk.getAsInt())));
  }

  @Override
  public Optional<StoredChunk> store(ByteBuffer data) {
    OptionalInt chunk = pool.allocate(owner);
    if (chunk.isEmpty()) {
      return Optional.empty();
    }
    int length = data.remaining();
    pool.write(chunk.getAsInt(), data.duplicate());
    synchronized (held) {
      held.add(chunk.getAsInt());
    }
    return Optional.of(new StoredChunk.Local(chunk.getAsInt(), length));
  }

  @Override
  public void read(StoredChunk chunk, ByteBuffer dst) {
    StoredChunk.Local c = (StoredChunk.Local) chunk;
    pool.read(c.index(), c.length(), dst);
  }

  /** Copies part of a chunk straight out of the pool (no staging buffer). */
  public void read(StoredChunk.Local chunk, int offset, byte[] dst, int dstOffset, int length) {
    pool.read(chunk.index(), offset, dst, dstOffset, length);
  }

  @Override
  public int releaseAll() throws IOException {
    List<Integer> chunks;
    synchronized (held) {
      chunks = new ArrayList<>(held);
      held.clear();
    }
    int freed = 0;
    IllegalStateException first = null;
    for (int c : chunks) {
      try {
        pool.free(c, owner);
        freed++;
      } catch (IllegalStateException e) {
        // Someone reclaimed it already (we were judged dead): nothing of ours left to free.
        if (first == null) {
          first = e;
        }
      }
    }
    if (first != null) {
      throw new IOException("could not free every local sponge chunk of " + owner, first);
    }
    return freed;
  }
}
