package dev.levee.bench.hadoop.median.suite;

import java.util.Arrays;
import java.util.List;

/**
 * What else is going on while the Median job runs: the paper's evaluation conditions, plus the
 * no-spill check.
 */
enum Condition {
  /** The job alone (apart from the co-runner). */
  NONE("none", false, false, true),
  /** Background readers on the disk the NodeManagers spill to. */
  DISK_CONTENTION("disk-contention", true, false, true),
  /** Memory pinned so the page cache cannot absorb spills. */
  MEMORY_PRESSURE("memory-pressure", false, true, true),
  /** Both, as in the paper's worst case (not run unless asked for). */
  DISK_CONTENTION_AND_MEMORY_PRESSURE("disk-contention+memory-pressure", true, true, true),
  /**
   * A reducer heap large enough that nothing spills: SpongeFiles must cost (almost) nothing then.
   */
  NO_SPILL("no-spill", false, false, false);

  static final List<Condition> DEFAULT = List.of(NONE, DISK_CONTENTION, MEMORY_PRESSURE, NO_SPILL);

  final String label;
  final boolean diskReaders;
  final boolean pageCacheSqueeze;

  /** Whether the reducer is sized to spill (and a co-runner measures what that does to others). */
  final boolean spills;

  Condition(String label, boolean diskReaders, boolean pageCacheSqueeze, boolean spills) {
    this.label = label;
    this.diskReaders = diskReaders;
    this.pageCacheSqueeze = pageCacheSqueeze;
    this.spills = spills;
  }

  static List<String> labels() {
    return Arrays.stream(values()).map(c -> c.label).toList();
  }
}
