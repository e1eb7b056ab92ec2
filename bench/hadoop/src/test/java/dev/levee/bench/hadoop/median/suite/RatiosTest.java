package dev.levee.bench.hadoop.median.suite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RatiosTest {
  @Test
  void slowdownIsTimeNextToAnotherOverTimeAlone() {
    assertEquals(1.5, Ratios.slowdown(30, 20), 1e-12);
    assertEquals(1.0, Ratios.slowdown(20, 20), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> Ratios.slowdown(30, 0));
    assertThrows(IllegalArgumentException.class, () -> Ratios.slowdown(Double.NaN, 20));
  }

  @Test
  void overlapIsTheShareOfTheFirstIntervalInsideTheSecond() {
    assertEquals(1.0, Ratios.overlapFraction(10, 20, 0, 100), 1e-12);
    assertEquals(0.5, Ratios.overlapFraction(10, 20, 15, 100), 1e-12);
    assertEquals(0.125, Ratios.overlapFraction(0, 40, 30, 35), 1e-12);
    assertEquals(0.0, Ratios.overlapFraction(10, 20, 20, 30), 1e-12);
    assertEquals(0.0, Ratios.overlapFraction(10, 20, 30, 40), 1e-12);
    assertThrows(IllegalArgumentException.class, () -> Ratios.overlapFraction(5, 5, 0, 10));
  }

  @Test
  void noSpillToleranceIsFivePercentOverStock() {
    assertTrue(Ratios.withinNoSpillTolerance(105, 100));
    assertTrue(Ratios.withinNoSpillTolerance(90, 100));
    assertFalse(Ratios.withinNoSpillTolerance(105.1, 100));
  }

  @Test
  void variantOrderRotatesBetweenRepetitions() {
    List<Variant> two = List.of(Variant.STOCK, Variant.SPONGEFILES);
    assertEquals(two, Variant.order(two, 0));
    assertEquals(List.of(Variant.SPONGEFILES, Variant.STOCK), Variant.order(two, 1));
    assertEquals(Variant.order(two, 0), Variant.order(two, 2));
    List<Variant> three = List.of(Variant.STOCK, Variant.STOCK_TUNED, Variant.SPONGEFILES);
    assertEquals(
        List.of(Variant.STOCK_TUNED, Variant.SPONGEFILES, Variant.STOCK), Variant.order(three, 1));
    assertEquals(
        List.of(Variant.SPONGEFILES, Variant.STOCK, Variant.STOCK_TUNED), Variant.order(three, 2));
    assertEquals("stock", Variant.STOCK.label);
    assertTrue(Variant.STOCK_TUNED.stockShuffle() && !Variant.SPONGEFILES.stockShuffle());
  }

  @Test
  void noSpillHeapKeepsTheInputBelowEitherArmsInMemoryMergeThreshold() {
    long input = 240_000_000L;
    int heapMb = NoSpillReducer.heapMb(input);
    double stockThreshold =
        (heapMb - NoSpillReducer.BASELINE_HEAP_MB)
            * (double) (1 << 20)
            * NoSpillReducer.SHUFFLE_BUFFER
            * NoSpillReducer.MERGE_PERCENT;
    // SpongeFiles applies the same fractions to the old generation: two thirds of the heap.
    double spongeThreshold = stockThreshold * 2 / 3;
    assertTrue(
        input <= spongeThreshold * NoSpillReducer.HEADROOM + (1 << 20),
        "heap " + heapMb + " MB too small for SpongeFiles' limits");
    assertTrue(input <= stockThreshold * NoSpillReducer.HEADROOM, "and so for stock's");
    assertTrue(heapMb < 800, "heap " + heapMb + " MB wastefully large for 240 MB");
    assertTrue(
        heapMb <= MedianSettings.MAX_NO_SPILL_HEAP_MB,
        "heap " + heapMb + " MB does not fit a NodeManager beside the AM");
  }
}
