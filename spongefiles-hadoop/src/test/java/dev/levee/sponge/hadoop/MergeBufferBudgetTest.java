package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.sponge.config.SpongeConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MergeBufferBudgetTest {
  private static final int MIB = 1 << 20;

  /** A run: its size and the bytes outside the local sponge. */
  private record Run(long size, long nonLocal) {}

  private static Optional<List<Run>> next(MergeBufferBudget budget, List<Run> runs) {
    return budget.nextIntermediateMerge(runs, Run::nonLocal, Run::size);
  }

  @Test
  void runsInTheLocalSpongeNeedNoBuffersSoAnyNumberMergesInOneRoundWithPrefetch() {
    MergeBufferBudget budget = new MergeBufferBudget(MIB, 2, 4L * MIB);
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      runs.add(new Run(10L * MIB, 0));
    }
    assertTrue(next(budget, runs).isEmpty());
    assertTrue(budget.prefetchFits(runs, Run::nonLocal));
  }

  @Test
  void prefetchIsGivenUpBeforeTheSingleRound() {
    MergeBufferBudget budget = new MergeBufferBudget(MIB, 2, 12L * MIB);
    List<Run> six = new ArrayList<>();
    List<Run> twelve = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      (i < 6 ? six : twelve).add(new Run(5L * MIB, MIB));
      twelve.add(new Run(5L * MIB, MIB));
    }
    assertTrue(budget.prefetchFits(six, Run::nonLocal), "6 runs x 2 buffers = 12 MiB fits");
    assertFalse(budget.prefetchFits(twelve.subList(0, 7), Run::nonLocal), "7 x 2 does not");
    assertTrue(
        next(budget, twelve.subList(0, 12)).isEmpty(),
        "12 runs x 1 buffer fits: one round, no prefetch");
    assertTrue(next(budget, twelve.subList(0, 13)).isPresent(), "13 do not");
  }

  @Test
  void tooManyBufferedRunsMergeJustEnoughOfTheSmallestToFit() {
    // 12 buffers: 24 buffered runs must shrink to 12; one merge of the 13 smallest would do, but a
    // merge may read
    // only 12 - 3 writer buffers = 9 runs: 9 -> 1 leaves 16, then the 5 smallest -> 1 leaves 12.
    MergeBufferBudget budget = new MergeBufferBudget(MIB, 2, 12L * MIB);
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      runs.add(new Run((24 - i) * MIB, MIB)); // the smallest run comes last
    }
    runs.add(new Run(MIB, 0)); // local: never picked, never counted
    List<Integer> widths = new ArrayList<>();
    for (Optional<List<Run>> batch = next(budget, runs);
        batch.isPresent();
        batch = next(budget, runs)) {
      List<Run> merged = batch.get();
      if (widths.isEmpty()) {
        assertEquals(new Run(MIB, MIB), merged.get(0), "smallest first");
        assertEquals(new Run(9L * MIB, MIB), merged.get(8));
      }
      widths.add(merged.size());
      runs.removeAll(merged);
      runs.add(new Run(merged.stream().mapToLong(Run::size).sum(), MIB));
      assertTrue(widths.size() < 24, "every intermediate merge must shrink the run count");
    }
    assertEquals(List.of(9, 5), widths);
    assertEquals(12, runs.stream().filter(r -> r.nonLocal() > 0).count());
    assertEquals(
        24 * 25 / 2 + 1,
        runs.stream().mapToLong(Run::size).sum() / MIB,
        "no bytes lost or invented");
  }

  @Test
  void aBudgetTooSmallForOneReaderStillMergesTwoAtATimeAndStops() {
    MergeBufferBudget budget = new MergeBufferBudget(MIB, 4, MIB / 2);
    List<Run> runs = new ArrayList<>(List.of(new Run(3, 1), new Run(2, 1), new Run(1, 1)));
    assertEquals(List.of(new Run(1, 1), new Run(2, 1)), next(budget, runs).orElseThrow());
    assertTrue(
        next(budget, List.of(new Run(6, 1))).isEmpty(),
        "one run left: nothing to merge, read it as is");
  }

  @Test
  void fractionOutsideZeroToOneIsRefusedNamingTheKey() {
    for (float bad : new float[] {0f, -0.1f, 1.5f, Float.NaN}) {
      IllegalArgumentException e =
          assertThrows(
              IllegalArgumentException.class, () -> MergeBufferBudget.bytesFromFraction(bad));
      assertTrue(
          e.getMessage().contains(SpongeConf.SHUFFLE_MERGE_DIRECT_MEMORY_FRACTION.name()),
          e.getMessage());
    }
    assertTrue(MergeBufferBudget.bytesFromFraction(1f) >= Runtime.getRuntime().maxMemory() / 2);
  }
}
