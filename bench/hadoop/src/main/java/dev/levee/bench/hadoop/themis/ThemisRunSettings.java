package dev.levee.bench.hadoop.themis;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.Range;
import dev.levee.bench.disk.DiskChoice;
import dev.levee.bench.hadoop.TaskJavaOptions;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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

  /** Sort's records without --records, before --scale. */
  static final long DEFAULT_SORT_RECORDS = 3_200_000;

  /** The suite's options. */
  static final class Options {
    @Option(
        names = "--workloads",
        paramLabel = "W,W",
        completionCandidates = WorkloadNames.class,
        description = "all, or some of ${COMPLETION-CANDIDATES}")
    String workloads = "all";

    @Option(
        names = "--records",
        paramLabel = "N",
        description =
            "100-byte records to sort (the sort workload; overrides --scale for it); the default,"
                + " 3200000, gives each reducer more than stock keeps in memory during its shuffle"
                + " (0.7 x 0.66 of the heap) but less than Themis's 0.6")
    @Range(min = 1000)
    Long records;

    @Option(
        names = "--scale",
        paramLabel = "F",
        description =
            "multiplies every workload's default input (sized for stock jobs of 20-60 s here)")
    @Range(min = 0, max = 1000, exclusiveMin = true)
    double scale = 1;

    @Option(names = "--maps", paramLabel = "N", description = "input files, one map each")
    @Range(min = 1, max = 1000)
    int maps = 3;

    @Option(
        names = "--reducers",
        paramLabel = "N",
        description = "reduce tasks (the planned variants take phase 0's count instead)")
    @Range(min = 1, max = 1000)
    int reducers = 2;

    @Option(
        names = "--variants",
        paramLabel = "V,V",
        completionCandidates = VariantNames.class,
        description =
            "all, or some of ${COMPLETION-CANDIDATES}; the -planned ones run at the reducer count"
                + " Themis's phase 0 chooses")
    String variants = ShuffleVariant.DEFAULT_SELECTION;

    @Option(
        names = "--task-heap-mb",
        paramLabel = "MB",
        description =
            "every map task's -Xmx, and every reduce task's unless --reduce-heap-mb is given; the"
                + " same for all variants; the default makes a map's output outgrow stock's 100 MB"
                + " sort buffer")
    @Range(min = 128, max = 8192)
    int taskHeapMb = 400;

    @Option(
        names = "--reduce-heap-mb",
        paramLabel = "MB",
        description =
            "every reduce task's -Xmx, for reducers small next to their partitions (default:"
                + " --task-heap-mb)")
    @Range(min = 128, max = 8192)
    Integer reduceHeapMb;

    @Option(
        names = "--node-memory-mb",
        paramLabel = "MB",
        description =
            "container memory of each of the two NodeManagers, which bounds the tasks running at"
                + " once (default: room for the AM and two of the largest containers, at least"
                + " 2048)")
    @Range(max = 1 << 20)
    Integer nodeMemoryMb;

    @Mixin TaskJavaOptions taskJavaOpts = new TaskJavaOptions();

    @Option(
        names = "--repetitions",
        paramLabel = "N",
        description = "runs of each variant (order rotates)")
    @Range(min = 1, max = 100)
    int repetitions = 1;

    @Option(
        names = "--drop-caches",
        description =
            "drop the page cache (sync; echo 3 > /proc/sys/vm/drop_caches; needs root) before"
                + " each job and again when its last map ends, with reduce slow start 1.0 for"
                + " every variant, so the disks serve the input and the map outputs")
    boolean dropCaches;

    @Option(
        names = "--figures",
        paramLabel = "DIR",
        description =
            "where the PNG and the ratio table go (default: the run directory's figures/)")
    String figures = "";

    @Option(
        names = "--keep-data",
        description = "leave the cluster's directory under .levee/ in place")
    boolean keepData;

    @Mixin DiskChoice disk = new DiskChoice();
  }

  /** The workloads' names, for the help. */
  static final class WorkloadNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return Workloads.all().names().iterator();
    }
  }

  /** The variants' labels, for the help. */
  static final class VariantNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return java.util.Arrays.stream(ShuffleVariant.values()).map(v -> v.label).iterator();
    }
  }

  static ThemisRunSettings from(Options o) {
    int heapMb = o.taskHeapMb;
    int reduceHeapMb = o.reduceHeapMb != null ? o.reduceHeapMb : heapMb;
    int largestContainerMb = Math.max(heapMb, reduceHeapMb) + CONTAINER_OVERHEAD_MB;
    int nodeMemoryMb = Math.max(2048, 512 + 2 * largestContainerMb);
    if (o.nodeMemoryMb != null) {
      if (o.nodeMemoryMb < 512 + largestContainerMb) {
        throw new BadArgumentException(
            "--node-memory-mb: expected at least "
                + (512 + largestContainerMb)
                + " (the AM and the largest container), got "
                + o.nodeMemoryMb);
      }
      nodeMemoryMb = o.nodeMemoryMb;
    }
    return new ThemisRunSettings(
        Workloads.all().select("workloads", o.workloads),
        o.records != null ? o.records : DEFAULT_SORT_RECORDS,
        o.records != null,
        o.scale,
        o.maps,
        o.reducers,
        ShuffleVariant.select("variants", o.variants),
        heapMb,
        reduceHeapMb,
        nodeMemoryMb,
        o.repetitions,
        o.taskJavaOpts.flags());
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
