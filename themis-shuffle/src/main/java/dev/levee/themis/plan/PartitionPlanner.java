package dev.levee.themis.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.io.RawComparator;

/**
 * Phase 0's decisions from a sample, with no I/O: how many partitions, where to cut them, which
 * keys are too heavy, whether splits must shrink. The paper's rule: the number of partitions is the
 * estimated intermediate size over the desired partition size, and the cuts are placed on the
 * sorted sample where the cumulative bytes pass multiples of the total (byte-weighted, which
 * handles records of very different sizes).
 */
public final class PartitionPlanner {
  private PartitionPlanner() {}

  /** Per record the reducer holds a pointer beside the record's bytes. */
  static final int REDUCER_BYTES_PER_RECORD = 8;

  /** Per record a map holds a pointer, a partition and a grouped pointer. */
  static final int MAP_BYTES_PER_RECORD = 20;

  /**
   * What the planner needs to know about the job.
   *
   * @param policy already resolved: HASH, RANGE or KEEP
   * @param keyDisplay turns a serialized key into text for the report
   * @param splitSizing whether the job's input format honours a split size Themis may set
   */
  public record Job(
      PlanPolicy policy,
      String partitioner,
      int userReducers,
      long reducerBudget,
      double fill,
      int maxReducers,
      long mapBudget,
      boolean splitSizing,
      RawComparator<?> comparator,
      Function<byte[], String> keyDisplay) {}

  public static PlanReport plan(MapOutputSample sample, Job job) {
    List<SampledRecord> records = sample.records();
    // What the reducers hold: the map output after the maps' combiner.
    long outBytes = sample.estimatedReducerInputBytes();
    long outRecords = sample.estimatedReducerInputRecords();
    long footprint = outBytes + outRecords * REDUCER_BYTES_PER_RECORD;
    long target = Math.max(1, (long) (job.fill() * job.reducerBudget()));
    // Each sampled record stands for this many bytes of reducer memory.
    long sampledFootprint = 0;
    for (SampledRecord r : records) {
      sampledFootprint += r.framedBytes() + REDUCER_BYTES_PER_RECORD;
    }
    double scale = sampledFootprint == 0 ? 0 : (double) footprint / sampledFootprint;

    int reducers;
    PartitionPlan plan = null;
    List<Long> predicted;
    if (job.policy() == PlanPolicy.KEEP || records.isEmpty()) {
      reducers = job.userReducers();
      long[] perPartition = new long[Math.max(1, reducers)];
      for (SampledRecord r : records) {
        perPartition[r.userPartition()] += r.framedBytes() + REDUCER_BYTES_PER_RECORD;
      }
      predicted = scaled(Arrays.stream(perPartition).boxed().toList(), scale);
    } else {
      int needed = (int) Math.min(job.maxReducers(), Math.max(1, ceilDiv(footprint, target)));
      reducers = Math.max(needed, Math.min(job.maxReducers(), job.userReducers()));
      SampledRecord[] sorted = records.toArray(new SampledRecord[0]);
      long[] weights;
      if (job.policy() == PlanPolicy.HASH) {
        Arrays.sort(sorted, Comparator.comparingInt(r -> r.hash() & Integer.MAX_VALUE));
        weights = weights(sorted);
        int[] at =
            Cuts.place(
                weights,
                reducers,
                (i, j) ->
                    (sorted[i].hash() & Integer.MAX_VALUE)
                        == (sorted[j].hash() & Integer.MAX_VALUE));
        int[] cuts = new int[at.length];
        for (int c = 0; c < at.length; c++) {
          cuts[c] =
              at[c] < sorted.length ? sorted[at[c]].hash() & Integer.MAX_VALUE : Integer.MAX_VALUE;
        }
        plan = PartitionPlan.ofHashes(reducers, cuts);
        predicted = scaled(Cuts.sizes(weights, at), scale);
      } else {
        RawComparator<?> cmp = job.comparator();
        Comparator<SampledRecord> order =
            (a, b) -> cmp.compare(a.key(), 0, a.key().length, b.key(), 0, b.key().length);
        Arrays.sort(sorted, order);
        weights = weights(sorted);
        int[] at =
            Cuts.place(weights, reducers, (i, j) -> order.compare(sorted[i], sorted[j]) == 0);
        byte[][] cuts = new byte[at.length][];
        for (int c = 0; c < at.length; c++) {
          // A cut past the last sample sends nothing there: repeat the largest key, which the
          // partition function puts before it.
          cuts[c] = sorted[Math.min(at[c], sorted.length - 1)].key();
        }
        plan = PartitionPlan.ofKeys(reducers, cuts);
        predicted = scaled(Cuts.sizes(weights, at), scale);
      }
    }

    List<HeavyKey> heavy = heavyKeys(records, scale, target, job);
    long largestMapOutput =
        (long)
            (sample.largestSplitBytes()
                * (sample.outputPerInputByte()
                    + sample.recordsPerInputByte() * MAP_BYTES_PER_RECORD));
    long splitMax = -1;
    if (job.splitSizing() && largestMapOutput > job.mapBudget() * 0.8) {
      double perInputByte =
          sample.outputPerInputByte() + sample.recordsPerInputByte() * MAP_BYTES_PER_RECORD;
      splitMax = Math.max(64L << 10, (long) (job.mapBudget() * 0.8 / perInputByte));
    }
    return new PlanReport(
        plan == null ? PlanPolicy.KEEP : job.policy(),
        plan == null ? job.partitioner() : null,
        job.userReducers(),
        reducers,
        plan,
        job.reducerBudget(),
        plan == null ? job.reducerBudget() : ceilDiv(footprint, reducers),
        outBytes,
        outRecords,
        predicted,
        heavy,
        job.mapBudget(),
        largestMapOutput,
        splitMax,
        sample);
  }

  private static long[] weights(SampledRecord[] sorted) {
    long[] w = new long[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      w[i] = sorted[i].framedBytes() + REDUCER_BYTES_PER_RECORD;
    }
    return w;
  }

  private static List<Long> scaled(List<Long> sampled, double scale) {
    List<Long> out = new ArrayList<>();
    for (long b : sampled) {
      out.add((long) (b * scale));
    }
    return out;
  }

  /** Keys whose estimated bytes exceed a planned partition; the ten largest, largest first. */
  private static List<HeavyKey> heavyKeys(
      List<SampledRecord> records, double scale, long target, Job job) {
    Map<KeyBytes, Long> perKey = new HashMap<>();
    for (SampledRecord r : records) {
      perKey.merge(
          new KeyBytes(r.key()), (long) r.framedBytes() + REDUCER_BYTES_PER_RECORD, Long::sum);
    }
    List<HeavyKey> heavy = new ArrayList<>();
    perKey.entrySet().stream()
        .filter(e -> e.getValue() * scale > target)
        .sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
        .limit(10)
        .forEach(
            e -> {
              long bytes = (long) (e.getValue() * scale);
              heavy.add(
                  new HeavyKey(
                      job.keyDisplay().apply(e.getKey().bytes()),
                      bytes,
                      bytes > job.reducerBudget()));
            });
    return heavy;
  }

  private record KeyBytes(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof KeyBytes k && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
