package dev.levee.themis.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.WritableComparator;
import org.junit.jupiter.api.Test;

/**
 * Phase 0's cuts, judged on the whole data they were planned from a sample of: on Zipf-skewed keys
 * and on Pareto-sized records, byte-weighted hash and range partitions keep the largest partition
 * within 1.2x of its target; keys too heavy for a partition are named; equal keys never split.
 */
class PartitionPlannerTest {
  private static final RawComparator<?> TEXT = WritableComparator.get(Text.class);

  /** A record of the full data: its key and its framed size. */
  private record Rec(Text key, int framed) {}

  private static byte[] serialize(Text t) {
    try {
      DataOutputBuffer b = new DataOutputBuffer();
      t.write(b);
      return Arrays.copyOf(b.getData(), b.getLength());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Rec> zipf(int n, int keys, double s, long seed) {
    double[] cdf = new double[keys];
    double total = 0;
    for (int k = 0; k < keys; k++) {
      total += 1 / Math.pow(k + 1, s);
      cdf[k] = total;
    }
    Random random = new Random(seed);
    List<Rec> data = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int k = Arrays.binarySearch(cdf, random.nextDouble() * total);
      k = k >= 0 ? k : -k - 1;
      data.add(new Rec(new Text(String.format("k%06d", k)), 30 + random.nextInt(40)));
    }
    return data;
  }

  private static List<Rec> pareto(int n, long seed) {
    Random random = new Random(seed);
    List<Rec> data = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      // Pareto(alpha 1.5, x0 100), at most 64 KiB: a few records are much larger than the rest.
      double size = 100 / Math.pow(1 - random.nextDouble(), 1 / 1.5);
      data.add(new Rec(new Text("r" + random.nextInt(5 * n)), (int) Math.min(size, 64 << 10)));
    }
    return data;
  }

  private static MapOutputSample sample(List<Rec> data, double fraction, long seed) {
    Random random = new Random(seed);
    List<SampledRecord> kept = new ArrayList<>();
    long bytes = 0;
    for (Rec r : data) {
      bytes += r.framed();
      if (random.nextDouble() < fraction) {
        kept.add(new SampledRecord(serialize(r.key()), r.framed(), r.key().hashCode(), 0));
      }
    }
    // Input = output here: the sample saw all of it, the whole input is that size.
    return new MapOutputSample(bytes, data.size(), bytes, kept, 1, 1, bytes, bytes);
  }

  private static PartitionPlanner.Job job(PlanPolicy policy, long budget) {
    return new PartitionPlanner.Job(
        policy,
        "test",
        1,
        budget,
        0.5,
        10_000,
        Long.MAX_VALUE,
        false,
        TEXT,
        b -> new String(b, 1, b.length - 1, java.nio.charset.StandardCharsets.UTF_8));
  }

  /** Actual bytes per partition of the full data under the plan. */
  private static long[] actual(List<Rec> data, PartitionPlan plan) {
    long[] sizes = new long[plan.reducers()];
    for (Rec r : data) {
      int p =
          plan.policy() == PlanPolicy.HASH
              ? plan.partitionOfHash(r.key().hashCode())
              : plan.partitionOfKey(serialize(r.key()), 0, serialize(r.key()).length, TEXT);
      sizes[p] += r.framed() + PartitionPlanner.REDUCER_BYTES_PER_RECORD;
    }
    return sizes;
  }

  private static void assertWithinTarget(List<Rec> data, PlanPolicy policy, long budget, int r) {
    PlanReport report = PartitionPlanner.plan(sample(data, 0.2, 7), job(policy, budget));
    assertEquals(r, report.reducers(), "reducers for " + policy);
    long[] sizes = actual(data, report.plan());
    long total = Arrays.stream(sizes).sum();
    long target = total / report.reducers();
    long max = Arrays.stream(sizes).max().orElseThrow();
    assertTrue(
        max <= 1.2 * target,
        policy
            + ": largest partition "
            + max
            + " is "
            + String.format("%.3f", (double) max / target)
            + "x its target "
            + target
            + "; sizes "
            + Arrays.toString(sizes));
    assertTrue(report.fits(), report.describe());
  }

  @Test
  void zipfKeysHashAndRangeCutsStayWithin20PercentOfTarget() {
    // Zipf(0.7) over 50,000 keys: skewed, but the hottest key is ~1% of the data.
    List<Rec> data = zipf(300_000, 50_000, 0.7, 1);
    long footprint = data.stream().mapToLong(r -> r.framed() + 8).sum();
    // Budget so that 8 partitions are needed at fill 0.5.
    long budget = footprint / 4 + 1;
    assertWithinTarget(data, PlanPolicy.HASH, budget, 8);
    assertWithinTarget(data, PlanPolicy.RANGE, budget, 8);
  }

  @Test
  void paretoSizedRecordsHashAndRangeCutsStayWithin20PercentOfTarget() {
    List<Rec> data = pareto(200_000, 2);
    long footprint = data.stream().mapToLong(r -> r.framed() + 8).sum();
    long budget = footprint / 3 + 1;
    assertWithinTarget(data, PlanPolicy.HASH, budget, 6);
    assertWithinTarget(data, PlanPolicy.RANGE, budget, 6);
  }

  @Test
  void aKeyTooHeavyForAPartitionIsNamedAndNeverSplit() {
    List<Rec> data = zipf(100_000, 10_000, 1.3, 3);
    long footprint = data.stream().mapToLong(r -> r.framed() + 8).sum();
    PlanReport report =
        PartitionPlanner.plan(sample(data, 0.2, 4), job(PlanPolicy.RANGE, footprint / 5));
    assertFalse(report.heavyKeys().isEmpty(), report.describe());
    HeavyKey hottest = report.heavyKeys().get(0);
    assertEquals("k000000", hottest.display());
    assertTrue(report.describe().contains("heavy key k000000"), report.describe());
    long hotBytes =
        data.stream()
            .filter(r -> r.key().toString().equals("k000000"))
            .mapToLong(r -> r.framed() + 8)
            .sum();
    assertTrue(
        Math.abs(hottest.estimatedBytes() - hotBytes) < 0.1 * hotBytes,
        "estimated " + hottest.estimatedBytes() + " vs actual " + hotBytes);
    // All of the hot key's records land in one partition.
    int p = report.plan().partitionOfKey(serialize(new Text("k000000")), 0, 8, TEXT);
    long[] sizes = actual(data, report.plan());
    assertTrue(sizes[p] >= hotBytes);
  }

  @Test
  void keepPredictsTheJobsOwnPartitions() {
    List<SampledRecord> records = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      records.add(new SampledRecord(new byte[] {1}, 100, i, i % 10 == 0 ? 1 : 0));
    }
    MapOutputSample s =
        new MapOutputSample(1_000_000, 1000, 100_000, records, 1, 1, 1_000_000, 1_000_000);
    PartitionPlanner.Job keep =
        new PartitionPlanner.Job(
            PlanPolicy.KEEP,
            "my.Partitioner",
            2,
            50_000,
            0.5,
            100,
            Long.MAX_VALUE,
            false,
            TEXT,
            b -> "?");
    PlanReport report = PartitionPlanner.plan(s, keep);
    assertEquals(2, report.reducers());
    assertEquals(null, report.plan());
    assertEquals(List.of(900L * 108, 100L * 108), report.predictedPartitionBytes());
    assertFalse(report.fits(), "partition 0 is predicted above the budget");
    assertTrue(report.describe().contains("my.Partitioner"));
  }

  @Test
  void splitsShrinkWhenAMapsOutputWouldOutgrowItsBuffer() {
    List<SampledRecord> records = List.of(new SampledRecord(new byte[] {1}, 100, 1, 0));
    // 1 GB splits, 2 bytes of output per input byte, 256 MB map buffers.
    MapOutputSample s = new MapOutputSample(1_000, 10, 2_000, records, 1, 4, 4L << 30, 1L << 30);
    PartitionPlanner.Job j =
        new PartitionPlanner.Job(
            PlanPolicy.HASH, "h", 1, 1L << 30, 0.5, 100, 256L << 20, true, TEXT, b -> "?");
    PlanReport report = PartitionPlanner.plan(s, j);
    assertTrue(
        report.splitMaxSize() > 0 && report.splitMaxSize() < 128L << 20,
        "" + report.splitMaxSize());
    assertTrue(report.describe().contains("splits limited to"));
  }

  @Test
  void aPlanSurvivesItsFile() throws IOException {
    for (PartitionPlan plan :
        List.of(
            PartitionPlan.ofHashes(4, new int[] {10, 10, 99}),
            PartitionPlan.ofKeys(
                3, new byte[][] {serialize(new Text("b")), serialize(new Text("m"))}))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      plan.write(out);
      assertEquals(plan, PartitionPlan.read(new ByteArrayInputStream(out.toByteArray()), "mem"));
    }
    PartitionPlan h = PartitionPlan.ofHashes(4, new int[] {10, 10, 99});
    assertEquals(0, h.partitionOfHash(9));
    assertEquals(2, h.partitionOfHash(10), "equal cuts leave partition 1 empty");
    assertEquals(3, h.partitionOfHash(-1), "hash codes are taken non-negative");
    PartitionPlan k =
        PartitionPlan.ofKeys(3, new byte[][] {serialize(new Text("b")), serialize(new Text("m"))});
    assertEquals(0, k.partitionOfKey(serialize(new Text("a")), 0, 2, TEXT));
    assertEquals(1, k.partitionOfKey(serialize(new Text("b")), 0, 2, TEXT));
    assertEquals(2, k.partitionOfKey(serialize(new Text("z")), 0, 2, TEXT));
  }
}
