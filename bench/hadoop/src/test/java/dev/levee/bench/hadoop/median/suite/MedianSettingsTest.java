package dev.levee.bench.hadoop.median.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionsCommand;
import java.util.List;
import org.junit.jupiter.api.Test;

class MedianSettingsTest {
  private static MedianSettings parse(String... args) {
    return MedianSettings.from(OptionsCommand.parse(new MedianSettings.Options(), List.of(args)));
  }

  private static String error(String... args) {
    return assertThrows(BadArgumentException.class, () -> parse(args)).getMessage();
  }

  @Test
  void defaultsKeepThePapersTenToOneRatioAndMoreMapsThanTheSortFactor() {
    MedianSettings s = parse();
    double ratio = s.reducerInputBytes() / (s.reduceHeapMb() * 1e6);
    assertTrue(ratio >= 9 && ratio <= 11, "reducer input / heap = " + ratio);
    assertTrue(
        s.maps() >= 2 * s.ioSortFactor() - 1, s.maps() + " maps vs factor " + s.ioSortFactor());
    assertEquals(Condition.DEFAULT, s.conditions());
    assertEquals(1, s.repetitions());
    assertTrue(s.coRunner());
    assertFalse(s.quick());
  }

  @Test
  void defaultMapOutputsAreTooBigForAnInMemoryShuffleSoStockWritesEachToDisk() {
    MedianSettings s = parse();
    double mapOutput = s.reducerInputBytes() / (double) s.maps();
    // Stock: a single shuffle may take 25% of the shuffle buffer, itself half the heap.
    double maxSingleShuffle = s.reduceHeapMb() * (double) (1 << 20) * 0.5 * 0.25;
    assertTrue(mapOutput > maxSingleShuffle, mapOutput + " <= " + maxSingleShuffle);
  }

  @Test
  void autoPoolHoldsFortyPercentOfTheInputPerNodeSoThreeNodesHoldItAll() {
    MedianSettings s = parse("--jobs", "median", "--numbers", "10m");
    assertEquals((int) Math.ceil(100_000_000 * 0.4 / (1 << 20)), s.poolMbPerNode());
    assertTrue(3L * s.poolMbPerNode() * (1 << 20) > s.reducerInputBytes());
    assertEquals(64, parse("--sponge-pool-mb", "64").poolMbPerNode());
    // With the Pig jobs, the larger of the two inputs sizes the sponges.
    MedianSettings pig = parse("--numbers", "10m", "--pages", "3m");
    assertEquals((int) Math.ceil(3_000_000 * 100 * 0.4 / (1 << 20)), pig.poolMbPerNode());
    assertEquals(
        s.poolMbPerNode(),
        parse("--jobs", "median,quantiles", "--numbers", "10m", "--pages", "100k").poolMbPerNode());
  }

  @Test
  void noDiskReadersIsRefusedOnlyWhereAConditionIsMadeOfThem() {
    String e = error("--disk-readers", "0", "--conditions", "none,disk-contention");
    assertTrue(e.contains("--disk-readers 0") && e.contains("disk-contention"), e);
    assertEquals(0, parse("--disk-readers", "0", "--conditions", "none,no-spill").diskReaders());
    assertEquals(3, parse("--disk-readers", "3").diskReaders());
    String tooMany = error("--disk-readers", "17");
    assertTrue(tooMany.contains("--disk-readers") && tooMany.contains("16"), tooMany);
  }

  @Test
  void quickPresetAppliesOnlyToOptionsNotGiven() {
    MedianSettings q = parse("--quick");
    assertTrue(q.quick());
    assertEquals(4_000_000, q.numbers());
    assertEquals(12, q.maps());
    assertEquals(24, q.reduceHeapMb());
    assertEquals(100_000, q.coRunnerRecords());
    MedianSettings given = parse("--quick", "--numbers", "5m");
    assertEquals(5_000_000, given.numbers());
    assertEquals(12, given.maps());
  }

  @Test
  void conditionsAreParsedInOrderWithoutDuplicates() {
    assertEquals(
        List.of(Condition.NO_SPILL, Condition.NONE),
        parse("--conditions", "no-spill, none,no-spill").conditions());
    assertEquals(
        List.of(Condition.DISK_CONTENTION_AND_MEMORY_PRESSURE),
        parse("--conditions", "disk-contention+memory-pressure").conditions());
  }

  @Test
  void variantsDefaultToAllFourInTheSuitesOrderAndMustIncludeStock() {
    assertEquals(
        List.of(Variant.STOCK, Variant.STOCK_TUNED, Variant.SPONGEFILES, Variant.STOCK_TMPFS),
        parse().variants());
    assertEquals(
        List.of(Variant.STOCK, Variant.SPONGEFILES, Variant.STOCK_TMPFS),
        parse("--variants", "stock-tmpfs,spongefiles, stock").variants());
    assertTrue(error("--variants", "spongefiles").contains("must include stock"));
    String bad = error("--variants", "stock,stock-ramdisk");
    assertTrue(
        bad.contains("--variants")
            && bad.contains("'stock-ramdisk'")
            && bad.contains("stock-tmpfs")
            && bad.contains("stock-tuned"),
        bad);
  }

  @Test
  void onlyStockTmpfsRunsOnTheTmpfsCluster() {
    for (Variant v : Variant.values()) {
      assertEquals(v == Variant.STOCK_TMPFS, v.onTmpfs(), v.label);
      assertEquals(v != Variant.SPONGEFILES, v.stockShuffle(), v.label);
    }
  }

  @Test
  void jobsDefaultToThePapersThreeInItsOrder() {
    assertEquals(List.of(Workload.MEDIAN, Workload.ANCHORTEXT, Workload.QUANTILES), parse().jobs());
    assertEquals(
        List.of(Workload.ANCHORTEXT, Workload.QUANTILES),
        parse("--jobs", "quantiles, anchortext,quantiles").jobs());
    String bad = error("--jobs", "median,wordcount");
    assertTrue(
        bad.contains("--jobs")
            && bad.contains("'wordcount'")
            && bad.contains("median, anchortext, quantiles"),
        bad);
    assertTrue(error("--jobs", ",").contains("at least one"));
  }

  @Test
  void pigHeapsAndPagesAreCheckedAndTheQuickPresetShrinksThePages() {
    MedianSettings s = parse();
    assertEquals(2_000_000, s.pages());
    assertEquals(128, s.pigReduceHeapMb());
    assertTrue(s.pigNoSpillHeapMb() > s.pigReduceHeapMb());
    assertEquals(1_000_000, parse("--quick").pages());
    assertEquals(500_000, parse("--quick", "--pages", "500k").pages());
    String order = error("--pig-reduce-heap-mb", "512", "--pig-no-spill-heap-mb", "256");
    assertTrue(
        order.contains("--pig-no-spill-heap-mb 256") && order.contains("--pig-reduce-heap-mb 512"),
        order);
    String big = error("--pig-no-spill-heap-mb", "4000");
    assertTrue(
        big.contains("--pig-no-spill-heap-mb")
            && big.contains(String.valueOf(MedianSettings.MAX_NO_SPILL_HEAP_MB)),
        big);
    assertTrue(error("--pages", "10").contains("--pages"));
  }

  @Test
  void badValuesNameTheOptionTheValueAndWhatIsAllowed() {
    String maps = error("--maps", "8");
    assertTrue(maps.contains("--maps 8") && maps.contains("--io-sort-factor 10"), maps);
    String cond = error("--conditions", "none,swap");
    assertTrue(cond.contains("'swap'") && cond.contains("disk-contention"), cond);
    assertTrue(error("--conditions", " , ").contains("at least one"));
    String pool = error("--sponge-pool-mb", "lots");
    assertTrue(
        pool.contains("--sponge-pool-mb") && pool.contains("'lots'") && pool.contains("auto"),
        pool);
    String leave = error("--squeeze-leave", "512m");
    assertTrue(leave.contains("--squeeze-leave") && leave.contains("512m"), leave);
    String coRunner = error("--co-runner", "yes");
    assertTrue(coRunner.contains("on or off") && coRunner.contains("'yes'"), coRunner);
    assertTrue(error("--reduce-heap-mb", "8").contains("--reduce-heap-mb"));
    assertTrue(error("--numbers", "ten").contains("--numbers"));
    assertTrue(error("--job-timeout", "5").contains("--job-timeout"));
    assertTrue(error("--numbers", "5000", "--maps", "20000").contains("--maps"));
    String few = error("--numbers", "1000", "--maps", "2000");
    assertTrue(few.contains("--maps") || few.contains("--numbers"), few);
    String big = error("--numbers", "60m", "--conditions", "none,no-spill");
    assertTrue(big.contains("--numbers 60000000") && big.contains("no-spill"), big);
    parse("--numbers", "60m", "--conditions", "none"); // without the no-spill line it runs
  }

  @Test
  void aSpindlePerNodeIsAnEmulatedDisksAndItsLinesSaySo() {
    assertTrue(
        error("--spindles", "per-node").contains("give --disk emulated"),
        "the real disk has one spindle whatever is asked");
    assertTrue(error("--spindles", "many").contains("expected one of shared, per-node"));
    MedianSettings perNode = parse("--spindles", "per-node", "--disk", "emulated");
    assertTrue(perNode.spindlePerNode());
    assertEquals("per-node", perNode.params(Workload.MEDIAN, Condition.NONE, 24).get("spindles"));
    // The shared spindle's lines keep the parameters of the runs before the choice existed.
    MedianSettings shared = parse("--disk", "emulated");
    assertFalse(shared.spindlePerNode());
    assertFalse(shared.params(Workload.MEDIAN, Condition.NONE, 24).containsKey("spindles"));
  }

  @Test
  void paramsAreTheSameForBothVariantsAndNameTheJobAndTheCondition() {
    MedianSettings s = parse();
    var p = s.params(Workload.MEDIAN, Condition.DISK_CONTENTION, s.reduceHeapMb());
    assertEquals("median", p.get("job"));
    assertEquals("disk-contention", p.get("condition"));
    assertEquals(2, p.get("disk_readers"));
    assertFalse(p.containsKey("squeeze_leave_bytes"));
    // The bound runs beside the same co-runner as the arms it bounds.
    assertEquals(
        p.get("co_runner"), s.params(Workload.MEDIAN, Condition.NO_SPILL, 500).get("co_runner"));
    assertTrue(String.valueOf(p.get("co_runner")).endsWith("lines sort"));
    var pig = s.params(Workload.QUANTILES, Condition.NONE, s.pigReduceHeapMb());
    assertEquals("quantiles", pig.get("job"));
    assertEquals(s.pages(), pig.get("pages"));
    // The Median figure picks its workload by "numbers": a Pig line must not carry it.
    assertFalse(pig.containsKey("numbers"));
    assertEquals("none", pig.get("co_runner"), "the co-runner runs beside the Median job only");
  }
}
