package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.Choices;
import dev.levee.bench.cli.Converters;
import dev.levee.bench.cli.Preset;
import dev.levee.bench.cli.Range;
import dev.levee.bench.cli.Sizes;
import dev.levee.bench.disk.DiskChoice;
import dev.levee.bench.hadoop.TaskJavaOptions;
import dev.levee.bench.hadoop.median.NumbersInput;
import dev.levee.bench.hadoop.median.load.DiskReaderOptions;
import dev.levee.bench.hadoop.median.load.SqueezePlan;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of {@code sponge-median}, validated, with the {@code --quick} preset applied to every
 * option the user did not give.
 *
 * <p>Scale: the paper's Median job fed one reducer about ten times its heap (10 GB through a 1 GB
 * JVM); the default keeps that ratio at a size a two-core machine runs all conditions of in about
 * 25 minutes. Its map outputs are larger than a single in-memory shuffle may be (a quarter of half
 * the heap), so stock writes every one to disk, and there are more than twice {@code
 * io.sort.factor} of them, so stock merges in several rounds (background on-disk merges, then
 * intermediate passes) as the paper describes.
 */
record MedianSettings(
    List<Workload> jobs,
    long numbers,
    int maps,
    int reduceHeapMb,
    int ioSortFactor,
    int poolMbPerNode,
    String chunkSize,
    List<Condition> conditions,
    List<Variant> variants,
    int repetitions,
    int diskReaders,
    long diskReaderFileBytes,
    long squeezeLeaveBytes,
    long squeezeMaxBytes,
    boolean coRunner,
    long coRunnerRecords,
    long jobTimeoutSeconds,
    long pages,
    int pigReduceHeapMb,
    int pigNoSpillHeapMb,
    boolean quick,
    boolean spindlePerNode,
    TaskJavaOptions taskJavaOptions) {

  static final String AUTO = "auto";

  /** Pig's default share of the heap a bag holds before spilling, set alike for every arm. */
  static final String PIG_MEMUSAGE = "0.2";

  /**
   * With {@code --sponge-pool-mb auto}: each node's sponge holds this share of the reducer's input,
   * so the spill fills the local sponge and goes on to the other nodes' (remote memory), and three
   * nodes hold all of it.
   */
  static final double AUTO_POOL_SHARE = 0.4;

  static final int NODE_MANAGERS = 3;

  /**
   * The largest no-spill reducer heap: its container (heap plus {@link
   * NoSpillReducer#CONTAINER_OVERHEAD_MB}) must fit a NodeManager beside the job's AM.
   */
  static final int MAX_NO_SPILL_HEAP_MB =
      SpongeMedianSuite.NODE_MANAGER_MEMORY_MB
          - dev.levee.it.hadoop.MiniClusterSettings.AM_MEMORY_MB
          - NoSpillReducer.CONTAINER_OVERHEAD_MB;

  /** The suite's options. */
  static final class Options {
    @Option(
        names = "--jobs",
        paramLabel = "LIST",
        split = ",",
        converter = Workloads.class,
        defaultValue = "median,anchortext,quantiles",
        description = "comma-separated, of ${COMPLETION-CANDIDATES} (the paper's three)",
        completionCandidates = Workloads.class)
    List<Workload> jobs;

    @Option(
        names = "--numbers",
        paramLabel = "N",
        defaultValue = "24m",
        description =
            "numbers the median job sorts through its one reducer (10 bytes each in the shuffle)")
    @Range(min = 1000)
    long numbers;

    @Option(
        names = "--maps",
        paramLabel = "N",
        description = "input files, one map each; must exceed --io-sort-factor")
    @Range(min = 2, max = 10_000)
    int maps = 24;

    @Option(
        names = "--reduce-heap-mb",
        paramLabel = "MB",
        description =
            "the reducer's -Xmx in the spilling conditions (the default is a tenth of the"
                + " reducer's input, the paper's ratio)")
    @Range(min = 16, max = 4096)
    int reduceHeapMb = 24;

    @Option(
        names = "--io-sort-factor",
        paramLabel = "N",
        description = "mapreduce.task.io.sort.factor: runs merged per pass")
    @Range(min = 2, max = 1000)
    int ioSortFactor = 10;

    @Option(
        names = "--sponge-pool-mb",
        paramLabel = "MB",
        description =
            "each NodeManager's sponge (and stock-tmpfs's tmpfs); auto = 40%% of the largest"
                + " reducer input among the jobs")
    String spongePoolMb = AUTO;

    // The paper's 1 MB chunks sat next to 1 GB task heaps. A 24 MB reducer merging two dozen runs
    // from remote sponges needs a read buffer per run in direct memory, which HotSpot caps at
    // -Xmx: smaller chunks keep the ratio of chunk to heap nearer the paper's.
    @Option(
        names = "--chunk-size",
        paramLabel = "SIZE",
        description = "levee.sponge.chunk.size on every node (4k..1g)")
    String chunkSize = "256k";

    @Option(
        names = "--conditions",
        paramLabel = "LIST",
        split = ",",
        converter = Conditions.class,
        completionCandidates = Conditions.class,
        defaultValue = "none,disk-contention,memory-pressure,no-spill",
        description = "comma-separated, of ${COMPLETION-CANDIDATES}")
    List<Condition> conditions;

    @Option(
        names = "--variants",
        paramLabel = "LIST",
        split = ",",
        converter = Variants.class,
        completionCandidates = Variants.class,
        defaultValue = "stock,stock-tuned,spongefiles,stock-tmpfs",
        description =
            "comma-separated, of ${COMPLETION-CANDIDATES} (stock is required: every ratio is to"
                + " it; the no-spill condition runs stock and spongefiles only)")
    List<Variant> variants;

    @Option(
        names = "--repetitions",
        paramLabel = "N",
        description = "runs of every condition and variant (order alternates)")
    @Range(min = 1, max = 100)
    int repetitions = 1;

    @Option(
        names = "--squeeze-leave",
        paramLabel = "SIZE",
        defaultValue = "3g",
        converter = Converters.ByteSize.class,
        description =
            "memory-pressure: pin memory until MemAvailable is this (>= 1g); the pin shrinks"
                + " whenever MemAvailable falls below half of it")
    @Range(min = SqueezePlan.MIN_LEAVE_BYTES)
    long squeezeLeave;

    @Option(
        names = "--squeeze-max",
        paramLabel = "SIZE",
        converter = Converters.ByteSize.class,
        defaultValue = "20g",
        description = "memory-pressure: never pin more than this")
    @Range(min = 0)
    long squeezeMax;

    @Option(
        names = "--co-runner",
        paramLabel = "on|off",
        arity = "1",
        converter = Converters.OnOff.class,
        defaultValue = "on",
        showDefaultValue = CommandLine.Help.Visibility.ALWAYS,
        description = "run a small sort alone and next to each variant")
    boolean coRunner;

    @Option(
        names = "--co-runner-records",
        paramLabel = "N",
        defaultValue = "400k",
        description = "lines (~100 bytes) the co-runner sorts")
    @Range(min = 1000)
    long coRunnerRecords;

    @Option(
        names = "--job-timeout",
        paramLabel = "SECONDS",
        description = "a job still running after this is killed and recorded failed")
    @Range(min = 60, max = 86_400)
    long jobTimeout = 1800;

    @Option(
        names = "--pages",
        paramLabel = "N",
        defaultValue = "2m",
        description =
            "web pages the Pig jobs read (about 100 bytes each; the largest domain holds a fifth,"
                + " English half)")
    @Range(min = 1000)
    long pages;

    @Option(
        names = "--pig-reduce-heap-mb",
        paramLabel = "MB",
        description =
            "the Pig jobs' reducer -Xmx in the spilling conditions (Pig needs more than the Median"
                + " reducer's to start)")
    @Range(min = 64, max = 4096)
    int pigReduceHeapMb = 128;

    @Option(
        names = "--pig-no-spill-heap-mb",
        paramLabel = "MB",
        description =
            "the Pig jobs' reducer -Xmx in the no-spill condition (its container must fit a"
                + " NodeManager beside the AM)")
    @Range(min = 64, max = MAX_NO_SPILL_HEAP_MB)
    int pigNoSpillHeapMb = 1024;

    @Option(
        names = "--quick",
        description =
            "a smoke run (3-5 minutes per job and arm set): --numbers 4m --maps 12"
                + " --reduce-heap-mb 24 --disk-reader-file 256m --co-runner-records 100k --pages 1m"
                + " unless given")
    @Preset({
      "numbers=4m",
      "maps=12",
      "reduce-heap-mb=24",
      "disk-reader-file=256m",
      "co-runner-records=100k",
      "pages=1m"
    })
    boolean quick;

    @Option(
        names = "--spindles",
        paramLabel = "shared|per-node",
        description =
            "with --disk emulated: one spindle under the whole cluster (shared), or besides it one"
                + " per NodeManager for its local dirs (per-node, as the paper's nodes each had"
                + " disks of their own; HDFS and the background readers stay on the shared one)")
    String spindles = SHARED;

    @Mixin DiskChoice disk = new DiskChoice();

    @Mixin DiskReaderOptions diskReaders = new DiskReaderOptions();

    @Mixin TaskJavaOptions taskJavaOpts = new TaskJavaOptions();
  }

  static final String SHARED = "shared";
  static final String PER_NODE = "per-node";

  /** Jobs by label. */
  static final class Workloads extends Converters.Labels<Workload> {
    Workloads() {
      super(Workload.values(), w -> w.label);
    }
  }

  /** Conditions by label. */
  static final class Conditions extends Converters.Labels<Condition> {
    Conditions() {
      super(Condition.values(), c -> c.label);
    }
  }

  /** Variants by label. */
  static final class Variants extends Converters.Labels<Variant> {
    Variants() {
      super(Variant.values(), v -> v.label);
    }
  }

  static MedianSettings from(Options o) {
    boolean perNode =
        Choices.oneOf("--spindles", o.spindles, List.of(SHARED, PER_NODE)).equals(PER_NODE);
    if (perNode && !o.disk.emulated()) {
      throw new BadArgumentException(
          "--spindles per-node: a spindle per node is an emulated disk's; give --disk emulated");
    }
    if (o.jobs.isEmpty()) {
      throw new BadArgumentException(
          "--jobs: name at least one of " + String.join(", ", Workload.labels()));
    }
    if (o.conditions.isEmpty()) {
      throw new BadArgumentException(
          "--conditions: name at least one of " + String.join(", ", Condition.labels()));
    }
    if (o.diskReaders.readers() == 0 && o.conditions.stream().anyMatch(c -> c.diskReaders)) {
      throw new BadArgumentException(
          "--disk-readers 0: the disk-contention condition is its background readers; give 1 to"
              + " 16, or leave the condition out of --conditions");
    }
    if (o.maps <= o.ioSortFactor) {
      throw new BadArgumentException(
          "--maps "
              + o.maps
              + " must exceed --io-sort-factor "
              + o.ioSortFactor
              + ": with no more map outputs than one merge pass takes, stock never merges in"
              + " rounds");
    }
    if (o.numbers < o.maps) {
      throw new BadArgumentException(
          "--numbers "
              + o.numbers
              + " must be at least --maps "
              + o.maps
              + " (every map needs input)");
    }
    long chunk;
    try {
      chunk = Sizes.parseBytes(o.chunkSize);
    } catch (NumberFormatException e) {
      chunk = -1;
    }
    if (chunk < 4096 || chunk > (1L << 30)) {
      throw new BadArgumentException(
          "--chunk-size: expected a size from 4k to 1g, got '" + o.chunkSize + "'");
    }
    List<Workload> jobs = inOrderOf(Workload.values(), o.jobs);
    List<Variant> variants = inOrderOf(Variant.values(), o.variants);
    if (!variants.contains(Variant.STOCK)) {
      throw new BadArgumentException(
          "--variants must include stock (every ratio is to stock), got " + labels(o.variants));
    }
    if (o.pigNoSpillHeapMb <= o.pigReduceHeapMb) {
      throw new BadArgumentException(
          "--pig-no-spill-heap-mb "
              + o.pigNoSpillHeapMb
              + " must exceed --pig-reduce-heap-mb "
              + o.pigReduceHeapMb
              + ": the no-spill line is the bigger heap");
    }
    int medianNoSpillHeap = NoSpillReducer.heapMb(NumbersInput.shuffleBytes(o.numbers));
    if (jobs.contains(Workload.MEDIAN)
        && o.conditions.contains(Condition.NO_SPILL)
        && medianNoSpillHeap > MAX_NO_SPILL_HEAP_MB) {
      throw new BadArgumentException(
          "--numbers "
              + o.numbers
              + ": the no-spill condition would need a "
              + medianNoSpillHeap
              + " MB reducer, more than the "
              + MAX_NO_SPILL_HEAP_MB
              + " MB a NodeManager holds beside the AM; give fewer numbers or leave out"
              + " no-spill");
    }
    return new MedianSettings(
        jobs,
        o.numbers,
        o.maps,
        o.reduceHeapMb,
        o.ioSortFactor,
        poolMb(o.spongePoolMb, largestReducerInput(jobs, o.numbers, o.pages)),
        o.chunkSize.trim(),
        List.copyOf(new LinkedHashSet<>(o.conditions)),
        variants,
        o.repetitions,
        o.diskReaders.readers(),
        o.diskReaders.fileBytes(),
        o.squeezeLeave,
        o.squeezeMax,
        o.coRunner,
        o.coRunnerRecords,
        o.jobTimeout,
        o.pages,
        o.pigReduceHeapMb,
        o.pigNoSpillHeapMb,
        o.quick,
        perNode,
        o.taskJavaOpts);
  }

  /**
   * The chosen values once each, in the declaration order of {@code all} (the paper's order for
   * jobs, the suite's fixed order for variants, so the rotation between repetitions does not depend
   * on how the list was written).
   */
  private static <E extends Enum<E>> List<E> inOrderOf(E[] all, List<E> chosen) {
    return Arrays.stream(all).filter(chosen::contains).toList();
  }

  private static String labels(List<Variant> variants) {
    return String.join(",", variants.stream().map(v -> v.label).toList());
  }

  /** The input of the largest reducer among {@code jobs}: the sponges are sized for it. */
  static long largestReducerInput(List<Workload> jobs, long numbers, long pages) {
    long largest = 0;
    if (jobs.contains(Workload.MEDIAN)) {
      largest = NumbersInput.shuffleBytes(numbers);
    }
    if (jobs.stream().anyMatch(j -> j.pig)) {
      largest = Math.max(largest, pages * dev.levee.bench.hadoop.median.pig.WebPages.LINE_BYTES);
    }
    return largest;
  }

  static int poolMb(String value, long reducerInputBytes) {
    if (value.equals(AUTO)) {
      return (int) Math.max(16, Math.ceil(reducerInputBytes * AUTO_POOL_SHARE / (1 << 20)));
    }
    try {
      int mb = Integer.parseInt(value.trim());
      if (mb >= 1 && mb <= 1 << 20) {
        return mb;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new BadArgumentException(
        "--sponge-pool-mb: expected auto or a whole number of MB from 1 to "
            + (1 << 20)
            + ", got '"
            + value
            + "'");
  }

  /** The reducer's input in bytes, as the shuffle counts it. */
  long reducerInputBytes() {
    return NumbersInput.shuffleBytes(numbers);
  }

  /**
   * The workload as recorded with every measurement of a condition (the same for both variants).
   */
  Map<String, Object> params(Workload job, Condition condition, int reduceHeapMbUsed) {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("job", job.label);
    p.put("condition", condition.label);
    if (job.pig) {
      p.put("pages", pages);
      p.put("web_domains", dev.levee.bench.hadoop.median.pig.WebPages.DOMAINS);
      p.put("pig_cachedbag_memusage", PIG_MEMUSAGE);
    } else {
      p.put("numbers", numbers);
      p.put("reducer_input_bytes", reducerInputBytes());
    }
    if (spindlePerNode) {
      // Only then: the shared spindle's lines keep the parameters they had before the choice.
      p.put("spindles", PER_NODE);
    }
    p.put("maps", maps);
    p.put("reduce_heap_mb", reduceHeapMbUsed);
    p.put("io_sort_factor", ioSortFactor);
    p.put("node_managers", NODE_MANAGERS);
    p.put("sponge_pool_mb_per_node", poolMbPerNode);
    p.put("sponge_chunk_size", chunkSize);
    p.put("co_runner", coRunner && !job.pig ? coRunnerRecords + " lines sort" : "none");
    if (condition.diskReaders) {
      p.put("disk_readers", diskReaders);
      p.put("disk_reader_file_bytes", diskReaderFileBytes);
    }
    if (condition.pageCacheSqueeze) {
      p.put("squeeze_leave_bytes", squeezeLeaveBytes);
      p.put("squeeze_max_bytes", squeezeMaxBytes);
    }
    taskJavaOptions.record(p);
    return p;
  }
}
