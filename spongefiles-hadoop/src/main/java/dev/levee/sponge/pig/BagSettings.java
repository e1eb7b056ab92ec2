package dev.levee.sponge.pig;

import java.util.function.Supplier;

/**
 * What every bag of a task shares: where its spills go (resolved at the first spill, so a task
 * whose bags never spill never looks for a sponge) and how much of the heap one bag may hold before
 * it spills itself.
 *
 * @param memoryBudgetBytes bytes of tuples (Pig's own estimate) one bag keeps in memory before it
 *     spills without waiting for Pig's memory manager, as Pig's internal cached bags do; 0 or less
 *     leaves spilling to the memory manager alone
 */
record BagSettings(Supplier<BagSpillSpace> space, long memoryBudgetBytes) {}
