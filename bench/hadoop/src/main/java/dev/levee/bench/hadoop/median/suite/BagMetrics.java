package dev.levee.bench.hadoop.median.suite;

import dev.levee.sponge.SpongeCounters;
import dev.levee.sponge.SpongeCounters.PerTier;
import dev.levee.sponge.SpongeCounters.PigBag;
import dev.levee.sponge.Tier;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.pig.PigCounters;

/**
 * What a Pig job's bags spilled in its reduce task, for both arms: Pig's own spill counters (they
 * count stock bags' local-file spills and SpongeFiles bags' spills alike; Pig counts no bytes for
 * its own spill files) and, with SpongeFiles, the bytes each tier took.
 */
final class BagMetrics {
  private BagMetrics() {}

  static Map<String, Double> reduceSide(Counters reduce) {
    Map<String, Double> m = new LinkedHashMap<>();
    double managed =
        reduce.findCounter(PigCounters.SPILLABLE_MEMORY_MANAGER_SPILL_COUNT).getValue();
    double proactiveBags = reduce.findCounter(PigCounters.PROACTIVE_SPILL_COUNT_BAGS).getValue();
    m.put("pig_memory_manager_spills", managed);
    m.put("pig_proactive_spill_bags", proactiveBags);
    m.put(
        "pig_proactive_spill_records",
        (double) reduce.findCounter(PigCounters.PROACTIVE_SPILL_COUNT_RECS).getValue());
    double spongeSpills = sponge(reduce, PigBag.SPILLS.counterName());
    double localFileSpills = sponge(reduce, PigBag.LOCAL_FILE_SPILLS.counterName());
    m.put("pig_bag_spills_sponge", spongeSpills);
    m.put("pig_bag_spills_local_file", localFileSpills);
    m.put("pig_bag_fallbacks", sponge(reduce, PigBag.FALLBACKS.counterName()));
    for (Tier t : Tier.values()) {
      m.put(
          "pig_bag_" + RunMetrics.tierKey(t) + "_bytes",
          sponge(reduce, PigBag.perTier(PerTier.BYTES_WRITTEN, t)));
    }
    boolean spilled = managed + proactiveBags + spongeSpills + localFileSpills > 0;
    m.put("bags_spilled", spilled ? 1.0 : 0.0);
    return m;
  }

  private static double sponge(Counters counters, String name) {
    Counter c = counters.getGroup(SpongeCounters.GROUP).findCounter(name, false);
    return c == null ? 0 : c.getValue();
  }
}
