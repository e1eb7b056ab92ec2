package dev.levee.sponge;

import dev.levee.sponge.tier.ChunkTier;
import dev.levee.sponge.tier.StoredChunk;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts one chunk into the first of a file's tiers that has room, nearest first, counting every refusal as a fallback.
 * A tier that failed with an error is not tried again for this file: a broken disk or DFS client would otherwise
 * cost every later chunk a failed attempt.
 */
final class ChunkPlacer {
  private static final Logger LOG = LoggerFactory.getLogger(ChunkPlacer.class);

  private final String fileName;
  private final List<ChunkTier> tiers;
  private final SpongeMetrics metrics;
  private final Set<Tier> broken = EnumSet.noneOf(Tier.class);

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
        LOG.warn("sponge file {}: {} failed for chunk {}; using the next tier for this file from now on",
            fileName, tier.tier(), seq, e);
        if (firstError == null) {
          firstError = e instanceof IOException io ? io : new IOException(e);
        }
      }
    }
    IOException e = new IOException("sponge file " + fileName + ": no tier could store chunk " + seq + " ("
        + data.remaining() + " B); tried " + (tried.isEmpty() ? "none (every spill tier is disabled)" : tried));
    if (firstError != null) {
      e.initCause(firstError);
    }
    throw e;
  }

  List<ChunkTier> tiers() {
    return tiers;
  }
}
