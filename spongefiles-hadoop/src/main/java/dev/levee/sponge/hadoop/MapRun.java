package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeFile;
import dev.levee.sponge.Tier;
import java.util.Map;
import org.apache.hadoop.mapred.SpillRecord;

/**
 * One sorted run a map spilled into a SpongeFile: one IFile segment per partition, in partition
 * order, laid out as a stock spill file, with its index kept in memory (stock keeps spill indexes
 * in memory too, up to {@code mapreduce.task.index.cache.limit.bytes}).
 */
record MapRun(SpongeFile file, SpillRecord index) {
  long length() {
    return file.length();
  }

  /** Bytes outside the local sponge: each needs a chunk buffer while the run is read. */
  long nonLocalBytes() {
    long nonLocal = 0;
    for (Map.Entry<Tier, Long> e : file.bytesByTier().entrySet()) {
      if (e.getKey() != Tier.LOCAL_MEMORY) {
        nonLocal += e.getValue();
      }
    }
    return nonLocal;
  }
}
