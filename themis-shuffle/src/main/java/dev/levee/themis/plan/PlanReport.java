package dev.levee.themis.plan;

import java.util.List;
import java.util.Locale;

/**
 * What phase 0 decided and why: the reducer count, the partition function (absent with the keep
 * policy), the predicted partition sizes against the reducers' memory, the heavy keys, and a split
 * size when maps would outgrow their buffers.
 *
 * @param estimatedReducerInputBytes what all reducers receive: the map output, after the maps'
 *     combiner where there is one
 * @param predictedPartitionBytes each planned partition's bytes (records plus their 8-byte
 *     pointers), extrapolated from the sample
 * @param splitMaxSize the split size to use, or -1 to keep the job's
 */
public record PlanReport(
    PlanPolicy policy,
    String partitionerKept,
    int userReducers,
    int reducers,
    PartitionPlan plan,
    long reducerBudget,
    long targetBytes,
    long estimatedReducerInputBytes,
    long estimatedReducerInputRecords,
    List<Long> predictedPartitionBytes,
    List<HeavyKey> heavyKeys,
    long mapBudget,
    long largestMapOutput,
    long splitMaxSize,
    MapOutputSample sample) {

  public long largestPredictedPartition() {
    return predictedPartitionBytes.stream().mapToLong(Long::longValue).max().orElse(0);
  }

  /** Whether every predicted partition fits its reducer's Themis memory. */
  public boolean fits() {
    return largestPredictedPartition() <= reducerBudget;
  }

  /** A few lines for a person: the plan, the figures behind it, and what to watch. */
  public String describe() {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "Themis phase 0: sampled %d of %d splits (%s of input) -> %s map output per input byte;"
                + " estimated map output %s in %,d records%n",
            sample.splitsSampled(),
            sample.totalSplits(),
            bytes(sample.inputBytes()),
            String.format(Locale.ROOT, "%.3f", sample.outputPerInputByte()),
            bytes(sample.estimatedOutputBytes()),
            sample.estimatedOutputRecords()));
    if (sample.combined()) {
      s.append(
          String.format(
              Locale.ROOT,
              "  after the maps' combiner (run on the sampled prefixes, projected to whole splits):"
                  + " reducers receive %s in %,d records (%.1f%% of the map output's bytes)%n",
              bytes(estimatedReducerInputBytes),
              estimatedReducerInputRecords,
              100 * sample.reducerByteShare()));
    }
    if (plan != null) {
      s.append(
          String.format(
              Locale.ROOT,
              "  %s partitioning over %d reducers (the job asked for %d), each partition planned at"
                  + " %s of a %s reducer budget%n",
              policy.name().toLowerCase(Locale.ROOT),
              reducers,
              userReducers,
              bytes(targetBytes),
              bytes(reducerBudget)));
    } else {
      s.append(
          String.format(
              Locale.ROOT,
              "  the job's partitioner %s and its %d reducers are kept; sizes are predicted only%n",
              partitionerKept,
              reducers));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "  predicted largest partition %s (%s)%n",
            bytes(largestPredictedPartition()),
            fits() ? "fits" : "EXCEEDS the reducer budget: that reducer will overflow into runs"));
    for (HeavyKey k : heavyKeys) {
      s.append(
          String.format(
              Locale.ROOT,
              "  heavy key %s: about %s of map output%s%n",
              k.display(),
              bytes(k.estimatedBytes()),
              k.overflows()
                  ? ", more than one reducer can hold: its reducer will overflow"
                  : ", a partition of its own"));
    }
    if (splitMaxSize > 0) {
      s.append(
          String.format(
              Locale.ROOT,
              "  maps would write up to %s into %s buffers: splits limited to %s%n",
              bytes(largestMapOutput),
              bytes(mapBudget),
              bytes(splitMaxSize)));
    }
    return s.toString();
  }

  static String bytes(long b) {
    if (b >= 10L << 30) {
      return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
    }
    if (b >= 10L << 20) {
      return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
    }
    if (b >= 10L << 10) {
      return String.format(Locale.ROOT, "%.1f KiB", b / 1024.0);
    }
    return b + " B";
  }
}
