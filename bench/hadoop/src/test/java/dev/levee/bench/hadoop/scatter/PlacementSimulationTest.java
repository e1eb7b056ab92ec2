package dev.levee.bench.hadoop.scatter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A seconds-long smoke run of {@code scatter-sim}: 32 servers, both policies, one seed. */
class PlacementSimulationTest {
  private static PlacementSimulation.Params params(String policy, long seed) {
    return new PlacementSimulation.Params(policy, 32, 1, 16, 5, 2, 100, 16, 1, 0, true, seed);
  }

  @Test
  void batchSamplingFillsThePoolEvenlyWhereTheFreeListPilesOnOneServer() {
    PlacementSimulation.Outcome batch = new PlacementSimulation(params("batch-sampling", 1)).run();
    PlacementSimulation.Outcome free = new PlacementSimulation(params("free-list", 1)).run();
    // Every task reads the same list, so the free list sends them all to its first server, which
    // is full after its 16 chunks: about 1/32 of the pool.
    assertTrue(free.utilizationAtFirstRefusal() < 0.1, free.toString());
    assertTrue(batch.utilizationAtFirstRefusal() > 0.9, batch.toString());
    assertTrue(
        batch.busyUntilFirstRefusal() > free.busyUntilFirstRefusal() + 0.5, batch.toString());
    assertTrue(batch.maxOverMeanAtHalf() < free.maxOverMeanAtHalf(), batch + " vs " + free);
    assertTrue(batch.storesPerChunk() < free.storesPerChunk(), batch + " vs " + free);
    // Batch sampling falls back to the whole list before a chunk leaves remote memory.
    assertEquals(32 * 16, batch.chunksPlaced(), batch.toString());
    assertEquals(1.0, batch.utilizationAtFirstSpill(), 1e-9);
  }

  @Test
  void aSeedGivesTheSameRunTwice() {
    assertEquals(
        new PlacementSimulation(params("batch-sampling", 7)).run(),
        new PlacementSimulation(params("batch-sampling", 7)).run());
  }
}
