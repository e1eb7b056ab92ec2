package dev.levee.sponge.pig;

import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.SpongeCounters.PigBag;
import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.SpongeFileSystem;
import dev.levee.sponge.SpongeMetrics;
import dev.levee.sponge.Tier;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the bags of one task spill: one {@link SpongeFile} per spill when the task has a sponge,
 * else a local temporary file per spill as stock Pig writes. Counts spills and publishes the bytes
 * each tier took and gave back as task counters under {@code pig.} as they happen (a Pig task has
 * no hook at its end where bags could report).
 */
final class BagSpillSpace {
  private static final Logger LOG = LoggerFactory.getLogger(BagSpillSpace.class);

  /**
   * Per-tier figures worth a counter each; placement timings stay out of a job's counter budget.
   */
  private static final SpongeCounters.PerTier[] PUBLISHED = {
    SpongeCounters.PerTier.BYTES_WRITTEN,
    SpongeCounters.PerTier.CHUNKS_WRITTEN,
    SpongeCounters.PerTier.BYTES_READ,
    SpongeCounters.PerTier.FALLBACKS,
    SpongeCounters.PerTier.ERRORS
  };

  private static final int WRITE_BUFFER = 64 * 1024;

  /** Writes a spill's tuples and says how many. */
  @FunctionalInterface
  interface TupleWriter {
    long writeTo(DataOutputStream out) throws IOException;
  }

  private final SpongeFileSystem sponge;
  private final BagCounters counters;
  private final Map<String, Long> published = new HashMap<>();
  private final AtomicBoolean warnedSpongeFailure = new AtomicBoolean();

  private BagSpillSpace(SpongeFileSystem sponge, BagCounters counters) {
    this.sponge = sponge;
    this.counters = counters;
  }

  /** Spills into SpongeFiles of {@code sponge}, which the caller keeps open and closes. */
  static BagSpillSpace sponge(SpongeFileSystem sponge, BagCounters counters) {
    return new BagSpillSpace(sponge, counters);
  }

  /** Spills into local temporary files, as stock Pig does. */
  static BagSpillSpace localFiles(BagCounters counters) {
    return new BagSpillSpace(null, counters);
  }

  boolean usesSponge() {
    return sponge != null;
  }

  /**
   * Writes one spill. Into a new SpongeFile when there is a sponge; if that fails (every tier
   * refused or failed), into a local file, as stock would, with one warning per task.
   *
   * @param bagKind {@code default}, {@code sorted} or {@code distinct}
   * @param merge whether this writes a merge of earlier spills rather than memory
   * @throws IOException when not even the local file could be written; nothing is left behind
   */
  SpillRun spill(String bagKind, boolean merge, TupleWriter writer) throws IOException {
    if (sponge != null) {
      SpongeFile file = null;
      try {
        file = sponge.create("pig-" + bagKind + "-bag" + (merge ? "-merge" : ""));
        long tuples;
        try (DataOutputStream out =
            new DataOutputStream(new BufferedOutputStream(file.output(), WRITE_BUFFER))) {
          tuples = writer.writeTo(out);
        }
        if (merge) {
          counters.add(PigBag.MERGES.counterName(), 1);
        } else {
          counters.add(PigBag.SPILLS.counterName(), 1);
          counters.add(PigBag.spillsOf(bagKind), 1);
          counters.add(PigBag.TUPLES_SPILLED.counterName(), tuples);
        }
        publishTierFigures();
        return new SpongeSpillRun(file);
      } catch (IOException | RuntimeException e) {
        if (file != null) {
          new SpongeSpillRun(file).delete();
        }
        publishTierFigures();
        if (warnedSpongeFailure.compareAndSet(false, true)) {
          LOG.warn(
              "a Pig bag spill into SpongeFiles failed; writing it to a local file as stock Pig"
                  + " does (further failures are logged at DEBUG)",
              e);
        } else {
          LOG.debug("a Pig bag spill into SpongeFiles failed; writing it to a local file", e);
        }
      }
    }
    return spillToLocalFile(merge, writer);
  }

  private SpillRun spillToLocalFile(boolean merge, TupleWriter writer) throws IOException {
    File f = File.createTempFile("pigbag", null);
    f.deleteOnExit();
    LocalFileSpillRun run = new LocalFileSpillRun(f);
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(new FileOutputStream(f), WRITE_BUFFER))) {
      long tuples = writer.writeTo(out);
      if (merge) {
        counters.add(PigBag.MERGES.counterName(), 1);
      } else {
        counters.add(PigBag.LOCAL_FILE_SPILLS.counterName(), 1);
        counters.add(PigBag.TUPLES_SPILLED.counterName(), tuples);
      }
      return run;
    } catch (IOException | RuntimeException e) {
      run.delete();
      throw e;
    }
  }

  /** A reader reached the end of a run: its bytes now show in the read figures. */
  void readFinished() {
    publishTierFigures();
  }

  /** Adds what changed since the last call to the counters (counters only ever grow). */
  private void publishTierFigures() {
    if (sponge == null) {
      return;
    }
    SpongeMetrics m = sponge.metrics();
    synchronized (published) {
      for (Tier tier : Tier.values()) {
        for (SpongeCounters.PerTier c : PUBLISHED) {
          String name = PigBag.perTier(c, tier);
          long now = m.value(c, tier);
          long before = published.getOrDefault(name, 0L);
          if (now != before) {
            published.put(name, now);
            counters.add(name, now - before);
          }
        }
      }
    }
  }
}
