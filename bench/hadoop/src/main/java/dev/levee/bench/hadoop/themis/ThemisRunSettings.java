package dev.levee.bench.hadoop.themis;

import dev.levee.bench.cli.ParsedOptions;
import java.util.List;

/**
 * What {@code themis} runs, parsed and checked before anything is set up: a bad option is reported
 * before an emulated disk is mounted or a cluster started, and nothing is left to clean up.
 */
record ThemisRunSettings(
    List<ThemisWorkload> workloads,
    long sortRecords,
    boolean sortRecordsGiven,
    double scale,
    int maps,
    int reducers,
    List<ShuffleVariant> variants,
    int heapMb,
    int reduceHeapMb,
    int nodeMemoryMb,
    int repetitions,
    String taskJavaOpts) {

  /** What a task container holds beside its heap. */
  private static final int CONTAINER_OVERHEAD_MB = 160;

  static ThemisRunSettings parse(ParsedOptions o) {
    int heapMb = o.intIn("task-heap-mb", 128, 8192);
    int reduceHeapMb = o.isGiven("reduce-heap-mb") ? o.intIn("reduce-heap-mb", 128, 8192) : heapMb;
    int largestContainerMb = Math.max(heapMb, reduceHeapMb) + CONTAINER_OVERHEAD_MB;
    int nodeMemoryMb =
        o.isGiven("node-memory-mb")
            ? o.intIn("node-memory-mb", 512 + largestContainerMb, 1 << 20)
            : Math.max(2048, 512 + 2 * largestContainerMb);
    return new ThemisRunSettings(
        Workloads.all().select("workloads", o.string("workloads")),
        o.longAtLeast("records", 1000),
        o.isGiven("records"),
        o.doubleIn("scale", 0, 1000, true),
        o.intIn("maps", 1, 1000),
        o.intIn("reducers", 1, 1000),
        ShuffleVariant.select("variants", o.string("variants")),
        heapMb,
        reduceHeapMb,
        nodeMemoryMb,
        o.intIn("repetitions", 1, 100),
        o.string("task-java-opts").trim());
  }

  int mapContainerMb() {
    return heapMb + CONTAINER_OVERHEAD_MB;
  }

  int reduceContainerMb() {
    return reduceHeapMb + CONTAINER_OVERHEAD_MB;
  }

  /**
   * Records of {@code w}'s input: --records for Sort when given, else its default times --scale.
   */
  long recordsOf(ThemisWorkload w) {
    if (!w.name().equals(SortWorkload.NAME)) {
      return Math.max(1000, Math.round(w.defaultRecords() * scale));
    }
    return sortRecordsGiven ? sortRecords : Math.max(1000, Math.round(sortRecords * scale));
  }
}
