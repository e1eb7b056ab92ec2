package dev.levee.sponge.tier;

import dev.levee.sponge.Tier;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One SpongeFile's view of one tier: it stores that file's chunks there, reads them back and frees
 * them all. One instance per file and tier, so per-file state (the disk file being appended to, the
 * remote servers this file already uses) lives here. Stores are issued by one thread at a time, but
 * with {@link #storeAsync} their completions (and the retries they trigger) may run on other
 * threads; reads come from one thread at a time.
 */
public interface ChunkTier {
  Tier tier();

  /**
   * Stores {@code data} (position..limit, at most one chunk) as a new chunk. Does not move {@code
   * data}'s position.
   *
   * @return the chunk, or empty when the tier has no room for it (the caller tries the next tier)
   * @throws IOException when the tier failed; the caller tries the next tier and avoids this one
   *     from then on
   */
  Optional<StoredChunk> store(ByteBuffer data) throws IOException;

  /**
   * {@link #store} that may leave the chunk in flight: a tier that can overlap stores (remote
   * memory pipelines them on one connection) returns once the bytes are sent, and completes the
   * future when the chunk is placed; every other tier stores synchronously here. {@code data} must
   * stay unchanged until the future completes (a refusal may retry it elsewhere). Follow-up work
   * after a refusal or a failure runs on {@code retries}, never on a network thread.
   */
  default CompletableFuture<Optional<StoredChunk>> storeAsync(ByteBuffer data, Executor retries) {
    try {
      return CompletableFuture.completedFuture(store(data));
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** All stores are done: flush and close append handles so that chunks can be read. */
  default void finishWrites() throws IOException {}

  /** Reads the whole chunk into {@code dst}, advancing its position by the chunk's length. */
  void read(StoredChunk chunk, ByteBuffer dst) throws IOException;

  /**
   * Frees every chunk this file stored in the tier and closes what it holds open; keeps going past
   * failures and throws the first one at the end.
   *
   * @return how many chunks were freed
   */
  int releaseAll() throws IOException;
}
