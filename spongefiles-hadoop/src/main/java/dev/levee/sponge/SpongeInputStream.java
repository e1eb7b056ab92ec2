package dev.levee.sponge;

import dev.levee.sponge.tier.ChunkTier;
import dev.levee.sponge.tier.LocalMemoryTier;
import dev.levee.sponge.tier.StoredChunk;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * The read side of a {@link SpongeFile}. Local sponge chunks are copied straight from the shared
 * mapping into the caller's array. Other chunks are fetched whole into a chunk buffer; while one is
 * consumed, the next non-local chunk is fetched in the background (reads are strictly sequential,
 * so the prefetch is never wasted), which takes two buffers at most.
 */
final class SpongeInputStream extends InputStream {
  private final SpongeFile file;
  private final List<StoredChunk> chunks;
  private final Map<Tier, ChunkTier> tiers;
  private final LocalMemoryTier local;
  private final SpongeMetrics metrics;
  private final Executor executor;
  private final ChunkBuffers buffers;
  private final boolean prefetch;

  private int index = -1;
  private StoredChunk current;
  private int offset;
  private ByteBuffer currentData;
  private ByteBuffer idle;
  private CompletableFuture<ByteBuffer> pending;
  private int pendingIndex = -1;
  private boolean closed;
  private final byte[] one = new byte[1];

  /**
   * Once a chunk could not be read the stream stays broken: skipping it would hand out wrong bytes.
   */
  private IOException broken;

  SpongeInputStream(
      SpongeFile file,
      List<StoredChunk> chunks,
      Map<Tier, ChunkTier> tiers,
      SpongeMetrics metrics,
      Executor executor,
      ChunkBuffers buffers,
      boolean prefetch) {
    this.file = file;
    this.chunks = chunks;
    this.tiers = tiers;
    this.local = (LocalMemoryTier) tiers.get(Tier.LOCAL_MEMORY);
    this.metrics = metrics;
    this.executor = executor;
    this.buffers = buffers;
    this.prefetch = prefetch;
    schedulePrefetch(0);
  }

  @Override
  public int read() throws IOException {
    int n = read(one, 0, 1);
    return n < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    Objects.checkFromIndexSize(off, len, b.length);
    ensureReadable();
    if (len == 0) {
      return 0;
    }
    while (current == null || offset == current.length()) {
      boolean more;
      try {
        more = advance();
      } catch (IOException e) {
        broken = e;
        throw e;
      }
      if (!more) {
        return -1;
      }
    }
    int n = Math.min(len, current.length() - offset);
    if (current instanceof StoredChunk.Local c) {
      local.read(c, offset, b, off, n);
    } else {
      currentData.get(offset, b, off, n);
    }
    offset += n;
    return n;
  }

  @Override
  public int available() {
    return current == null || closed ? 0 : current.length() - offset;
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    abort();
    file.readerClosed(this);
  }

  /** Drops buffers after any running prefetch finished (it writes into one of them). */
  void abort() {
    closed = true;
    if (pending != null) {
      ByteBuffer prefetched = null;
      try {
        prefetched = pending.join();
      } catch (CompletionException | java.util.concurrent.CancellationException ignored) {
        // A failed prefetch already returned its buffer; nobody will read it anyway.
      }
      buffers.give(prefetched);
      pending = null;
    }
    buffers.give(currentData);
    buffers.give(idle);
    currentData = null;
    idle = null;
  }

  private boolean advance() throws IOException {
    if (index + 1 >= chunks.size()) {
      return false;
    }
    index++;
    StoredChunk next = chunks.get(index);
    if (!(next instanceof StoredChunk.Local)) {
      long start = System.nanoTime();
      ByteBuffer data = pendingIndex == index ? awaitPrefetch() : fetchNow(index);
      metrics.readWait(System.nanoTime() - start);
      if (currentData != null) {
        idle = currentData;
      }
      currentData = data;
    }
    current = next;
    offset = 0;
    metrics.read(next.tier(), next.length());
    schedulePrefetch(index + 1);
    return true;
  }

  private ByteBuffer fetchNow(int i) throws IOException {
    if (pending != null) {
      // Never expected (the prefetch always targets the next non-local chunk); keep buffers
      // consistent anyway.
      ByteBuffer stale = awaitPrefetch();
      buffers.give(stale);
    }
    ByteBuffer target = idle != null ? idle : buffers.take();
    idle = null;
    try {
      return fetch(i, target);
    } catch (IOException e) {
      buffers.give(target);
      throw e;
    }
  }

  private ByteBuffer awaitPrefetch() throws IOException {
    CompletableFuture<ByteBuffer> p = pending;
    pending = null;
    pendingIndex = -1;
    try {
      return p.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      try {
        buffers.give(p.join());
      } catch (CompletionException ignored) {
        // Failed anyway.
      }
      throw new InterruptedIOException("interrupted while reading sponge file " + file.name());
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException("sponge file " + file.name() + ": prefetch failed", cause);
    }
  }

  private void schedulePrefetch(int from) {
    if (!prefetch || pending != null) {
      return;
    }
    for (int j = from; j < chunks.size(); j++) {
      if (!(chunks.get(j) instanceof StoredChunk.Local)) {
        ByteBuffer target = idle != null ? idle : buffers.take();
        idle = null;
        int chunk = j;
        pendingIndex = j;
        pending =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return fetch(chunk, target);
                  } catch (IOException e) {
                    buffers.give(target);
                    throw new CompletionException(e);
                  }
                },
                executor);
        return;
      }
    }
  }

  /** Reads chunk {@code i} whole into {@code target}, flipped for reading. */
  private ByteBuffer fetch(int i, ByteBuffer target) throws IOException {
    StoredChunk c = chunks.get(i);
    target.clear();
    try {
      tiers.get(c.tier()).read(c, target);
    } catch (IOException e) {
      metrics.error(c.tier());
      throw new IOException(
          "sponge file "
              + file.name()
              + ": cannot read chunk "
              + i
              + " of "
              + chunks.size()
              + ", "
              + c
              + ": "
              + e.getMessage(),
          e);
    }
    if (target.position() != c.length()) {
      throw new IOException(
          "sponge file "
              + file.name()
              + ": chunk "
              + i
              + " ("
              + c
              + ") returned "
              + target.position()
              + " bytes, expected "
              + c.length());
    }
    return target.flip();
  }

  private void ensureReadable() throws IOException {
    if (closed) {
      throw new IOException("sponge file " + file.name() + " reader is closed");
    }
    if (broken != null) {
      throw new IOException(
          "sponge file " + file.name() + " is unreadable after: " + broken.getMessage(), broken);
    }
    if (file.isDeleted()) {
      throw new IOException("sponge file " + file.name() + " was deleted");
    }
  }
}
