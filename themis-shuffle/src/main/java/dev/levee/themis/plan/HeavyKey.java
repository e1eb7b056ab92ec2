package dev.levee.themis.plan;

/**
 * A key phase 0 found too heavy for one planned partition.
 *
 * @param display the key as text (its toString, shortened)
 * @param estimatedBytes its map output bytes, extrapolated from the sample
 * @param overflows whether it alone outgrows a reducer's whole Themis memory (its reducer will
 *     spill, or fail with overflow=fail)
 */
public record HeavyKey(String display, long estimatedBytes, boolean overflows) {}
