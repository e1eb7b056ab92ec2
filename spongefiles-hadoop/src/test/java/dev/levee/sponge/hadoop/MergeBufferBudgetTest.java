package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  void runsInTheLocalSpongeNeedNoBuffersSoAnyNumberMergesInOneRound() {
    MergeBufferBudget budget = new MergeBufferBudget(MIB, true, 2, 4L * MIB);
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      runs.add(new Run(10L * MIB, 0));
    }
    assertTrue(next(budget, runs).isEmpty());
  }

  @Test
  void bufferedRunsThatFitMergeInOneRound() {
    // 6 remote runs x 2 buffers (prefetch) x 1 MiB = 12 MiB <= 12 MiB.
    MergeBufferBudget budget = new MergeBufferBudget(MIB, true, 2, 12L * MIB);
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      runs.add(new Run(5L * MIB, MIB));
    }
    assertTrue(next(budget, runs).isEmpty());
  }

  @Test
  void tooManyBufferedRunsMergeTheSmallestFirstUntilTheyFit() {
    // 12 MiB: 3 writer buffers (1 + 2 in flight) leave 9, i.e. 4 readers with prefetch per intermediate merge.
    MergeBufferBudget budget = new MergeBufferBudget(MIB, true, 2, 12L * MIB);
    List<Run> runs = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      runs.add(new Run((24 - i) * MIB, MIB)); // the smallest run comes last
    }
    runs.add(new Run(MIB, 0)); // local: never picked, never counted
    List<Run> first = next(budget, runs).orElseThrow();
    assertEquals(List.of(new Run(MIB, MIB), new Run(2L * MIB, MIB), new Run(3L * MIB, MIB), new Run(4L * MIB, MIB)),
        first);
    int rounds = 0;
    for (Optional<List<Run>> batch = next(budget, runs); batch.isPresent(); batch = next(budget, runs)) {
      List<Run> merged = batch.get();
      runs.removeAll(merged);
      runs.add(new Run(merged.stream().mapToLong(Run::size).sum(), MIB));
      rounds++;
      assertTrue(rounds < 24, "every intermediate merge must shrink the run count");
    }
    long buffered = runs.stream().filter(r -> r.nonLocal() > 0).count();
    assertTrue(2 * buffered * MIB <= 12L * MIB, "after " + rounds + " rounds " + buffered + " buffered runs remain");
    assertEquals(24 * 25 / 2 + 1, runs.stream().mapToLong(Run::size).sum() / MIB, "no bytes lost or invented");
  }

  @Test
  void aBudgetTooSmallForOneReaderStillMergesTwoAtATimeAndStops() {
    MergeBufferBudget budget = new MergeBufferBudget(MIB, false, 4, MIB / 2);
    List<Run> runs = new ArrayList<>(List.of(new Run(3, 1), new Run(2, 1), new Run(1, 1)));
    assertEquals(List.of(new Run(1, 1), new Run(2, 1)), next(budget, runs).orElseThrow());
    assertTrue(next(budget, List.of(new Run(6, 1))).isEmpty(), "one run left: nothing to merge, read it as is");
  }

  @Test
  void fractionOutsideZeroToOneIsRefusedNamingTheKey() {
    for (float bad : new float[] {0f, -0.1f, 1.5f, Float.NaN}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> MergeBufferBudget.bytesFromFraction(bad));
      assertTrue(e.getMessage().contains(SpongeShuffleKeys.MERGE_DIRECT_MEMORY_FRACTION), e.getMessage());
    }
    assertTrue(MergeBufferBudget.bytesFromFraction(1f) >= Runtime.getRuntime().maxMemory() / 2);
  }
}
