package dev.levee.sponge.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.junit.jupiter.api.Test;

/**
 * The reduce side's heap figures in the module README, from the budget's own arithmetic: a reducer
 * at {@code -Xmx64m -XX:+UseSerialGC} with stock's default fractions.
 */
class ShuffleMemoryBudgetTest {
  /**
   * What {@code java -Xmx64m -XX:+UseSerialGC} reports on OpenJDK 17: {@code Runtime.maxMemory()},
   * and the "Tenured Gen" pool's maximum ({@link TenuredHeap#capacity()}).
   */
  private static final long HEAP = 64_880_640L;

  private static final long OLD_GENERATION = 44_761_088L;

  private static JobConf reducer() {
    JobConf job = new JobConf(false);
    job.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, HEAP);
    return job;
  }

  @Test
  void theReadmesFiguresAtA64MbSerialHeap() {
    // Stock's arithmetic is this one applied to the whole heap; its fetches may overshoot
    // memoryLimit by one single shuffle.
    ShuffleMemoryBudget stock = ShuffleMemoryBudget.of(reducer(), HEAP);
    assertEquals(45_416_448L, stock.memoryLimit());
    assertEquals(11_354_112L, stock.maxSingleShuffle());
    assertEquals(56_770_560L, stock.memoryLimit() + stock.maxSingleShuffle());

    ShuffleMemoryBudget sponge = ShuffleMemoryBudget.of(reducer(), OLD_GENERATION);
    assertEquals(31_332_762L, sponge.memoryLimit());
    assertEquals(7_833_190L, sponge.maxSingleShuffle());
    assertEquals(20_679_624L, sponge.mergeThreshold());
    assertEquals(31_332_762L, sponge.peak());
  }

  @Test
  void aFetchThatWouldOvershootWaitsOnceAMergeIsDue() {
    ShuffleMemoryBudget b = ShuffleMemoryBudget.of(reducer(), OLD_GENERATION);
    long single = b.maxSingleShuffle();
    // Stock admits any fetch while usedMemory <= memoryLimit; here one past the limit waits.
    assertFalse(b.admits(b.memoryLimit() - 1, single));
    assertTrue(b.admits(b.memoryLimit() - single, single));
    // Below the merge threshold no merge is coming, so a fetch is admitted (within the peak).
    assertTrue(b.admits(b.mergeThreshold() - 1, single));
    assertTrue(b.mergeThreshold() - 1 + single <= b.peak());
  }
}
