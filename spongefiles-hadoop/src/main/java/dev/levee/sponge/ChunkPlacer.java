package dev.levee.sponge;

import dev.levee.sponge.tier.ChunkTier;
import dev.levee.sponge.tier.StoredChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts one chunk into the first of a file's tiers that has room, nearest first, counting every
 * refusal as a fallback. A tier that failed with an error is not tried again for this file: a
 * broken disk or DFS client would otherwise cost every later chunk a failed attempt.
 */
final class ChunkPlacer {
  private static final Logger LOG = LoggerFactory.getLogger(ChunkPlacer.class);

  private final String fileName;
  private final List<ChunkTier> tiers;
  private final SpongeMetrics metrics;

  /**
   * Tiers that failed for this file; synchronized, as pipelined chunks complete on other threads.
   */
  private final Set<Tier> broken = Collections.synchronizedSet(EnumSet.noneOf(Tier.class));

  ChunkPlacer(String fileName, List<ChunkTier> tiers, SpongeMetrics metrics) {
    this.fileName = fileName;
    this.tiers = List.copyOf(tiers);
    this.metrics = metrics;
  }

  /** Stores {@code data} (not moving its position); called by one thread at a time. */
  StoredChunk place(ByteBuffer data, int seq) throws IOException {
    List<String> tried = new ArrayList<>();
    IOException firstError = null;
    for (ChunkTier tier : tiers) {
      if (broken.contains(tier.tier())) {
        tried.add(tier.tier() + ": failed earlier");
        continue;
      }
      long start = System.nanoTime();
      try {
        Optional<StoredChunk> stored = tier.store(data);
        long nanos = System.nanoTime() - start;
        if (stored.isPresent()) {
          metrics.placed(tier.tier(), data.remaining(), nanos);
          return stored.get();
        }
        metrics.fellBack(tier.tier(), nanos, false);
        tried.add(tier.tier() + ": no room");
      } catch (IOException | RuntimeException e) {
        metrics.fellBack(tier.tier(), System.nanoTime() - start, true);
        broken.add(tier.tier());
        tried.add(tier.tier() + ": " + e);
        LOG.warn(
            "sponge file {}: {} failed for chunk {}; using the next tier for this file from now on",
            fileName,
            tier.tier(),
            seq,
            e);
        if (firstError == null) {
          firstError = e instanceof IOException io ? io : new IOException(e);
        }
      }
    }
    throw noTier(data, seq, tried, firstError);
  }

  /**
   * {@link #place} that leaves the chunk in flight where the tier allows it (remote memory
   * pipelines): returns once the first tier has the bytes on their way, and completes when the
   * chunk is placed, with the same fallbacks and the same error as {@link #place}. {@code data}
   * must stay unchanged until then. Calls are issued by one thread at a time; fallbacks run on
   * {@code retries}.
   */
  CompletableFuture<StoredChunk> placeAsync(ByteBuffer data, int seq, Executor retries) {
    return attemptFrom(0, data, seq, retries, new Tries());
  }

  /** What the tiers tried so far for one chunk said. */
  private static final class Tries {
    final List<String> tried = new ArrayList<>();
    IOException firstError;
  }

  private CompletableFuture<StoredChunk> attemptFrom(
      int i, ByteBuffer data, int seq, Executor retries, Tries so) {
    while (i < tiers.size() && broken.contains(tiers.get(i).tier())) {
      so.tried.add(tiers.get(i).tier() + ": failed earlier");
      i++;
    }
    if (i == tiers.size()) {
      return CompletableFuture.failedFuture(noTier(data, seq, so.tried, so.firstError));
    }
    ChunkTier tier = tiers.get(i);
    int next = i + 1;
    long start = System.nanoTime();
    CompletableFuture<Optional<StoredChunk>> stored;
    try {
      stored = tier.storeAsync(data, retries);
    } catch (RuntimeException e) {
      stored = CompletableFuture.failedFuture(e);
    }
    return stored
        .handle(
            (chunk, error) -> {
              long nanos = System.nanoTime() - start;
              if (error == null && chunk.isPresent()) {
                metrics.placed(tier.tier(), data.remaining(), nanos);
                return chunk.get();
              }
              if (error == null) {
                metrics.fellBack(tier.tier(), nanos, false);
                synchronized (so) {
                  so.tried.add(tier.tier() + ": no room");
                }
                return null;
              }
              Throwable e =
                  error instanceof CompletionException && error.getCause() != null
                      ? error.getCause()
                      : error;
              metrics.fellBack(tier.tier(), nanos, true);
              broken.add(tier.tier());
              LOG.warn(
                  "sponge file {}: {} failed for chunk {}; using the next tier for this file from now on",
                  fileName,
                  tier.tier(),
                  seq,
                  e);
              synchronized (so) {
                so.tried.add(tier.tier() + ": " + e);
                if (so.firstError == null) {
                  so.firstError = e instanceof IOException io ? io : new IOException(e);
                }
              }
              return null;
            })
        .thenCompose(
            chunk ->
                chunk != null
                    ? CompletableFuture.completedFuture(chunk)
                    : CompletableFuture.supplyAsync(
                            () -> attemptFrom(next, data, seq, retries, so), retries)
                        .thenCompose(f -> f));
  }

  private IOException noTier(ByteBuffer data, int seq, List<String> tried, IOException firstError) {
    IOException e =
        new IOException(
            "sponge file "
                + fileName
                + ": no tier could store chunk "
                + seq
                + " ("
                + data.remaining()
                + " B); tried "
                + (tried.isEmpty() ? "none (every spill tier is disabled)" : tried));
    if (firstError != null) {
      e.initCause(firstError);
    }
    return e;
  }

  List<ChunkTier> tiers() {
    return tiers;
  }
}
