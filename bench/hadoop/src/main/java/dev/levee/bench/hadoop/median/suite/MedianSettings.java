package dev.levee.bench.hadoop.median.suite;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import dev.levee.bench.disk.DiskChoice;
import dev.levee.bench.hadoop.median.NumbersInput;
import dev.levee.bench.hadoop.median.load.SqueezePlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    boolean quick) {

  static final String JOBS = "jobs";
  static final String NUMBERS = "numbers";
  static final String MAPS = "maps";
  static final String REDUCE_HEAP_MB = "reduce-heap-mb";
  static final String IO_SORT_FACTOR = "io-sort-factor";
  static final String SPONGE_POOL_MB = "sponge-pool-mb";
  static final String CHUNK_SIZE = "chunk-size";
  static final String CONDITIONS = "conditions";
  static final String VARIANTS = "variants";
  static final String REPETITIONS = "repetitions";
  static final String DISK_READERS = "disk-readers";
  static final String DISK_READER_FILE = "disk-reader-file";
  static final String SQUEEZE_LEAVE = "squeeze-leave";
  static final String SQUEEZE_MAX = "squeeze-max";
  static final String CO_RUNNER = "co-runner";
  static final String CO_RUNNER_RECORDS = "co-runner-records";
  static final String JOB_TIMEOUT = "job-timeout";
  static final String PAGES = "pages";
  static final String PIG_REDUCE_HEAP_MB = "pig-reduce-heap-mb";
  static final String PIG_NO_SPILL_HEAP_MB = "pig-no-spill-heap-mb";
  static final String QUICK = "quick";

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
   * Option name -> value under {@code --quick}: a smoke run of every job and condition (3-5 minutes
   * for the Median job alone).
   */
  static final Map<String, String> QUICK_PRESET =
      Map.of(
          NUMBERS, "4m",
          MAPS, "12",
          REDUCE_HEAP_MB, "24",
          DISK_READER_FILE, "256m",
          CO_RUNNER_RECORDS, "100k",
          PAGES, "1m");

  /**
   * The largest no-spill reducer heap: its container (heap plus {@link
   * NoSpillReducer#CONTAINER_OVERHEAD_MB}) must fit a NodeManager beside the job's AM.
   */
  static final int MAX_NO_SPILL_HEAP_MB =
      SpongeMedianSuite.NODE_MANAGER_MEMORY_MB
          - dev.levee.it.hadoop.MiniClusterSettings.AM_MEMORY_MB
          - NoSpillReducer.CONTAINER_OVERHEAD_MB;

  static List<OptionSpec> options() {
    List<OptionSpec> specs =
        new ArrayList<>(
            List.of(
                OptionSpec.optional(
                    JOBS,
                    "LIST",
                    "comma-separated, of "
                        + String.join(", ", Workload.labels())
                        + " (the paper's three)",
                    String.join(",", Workload.labels())),
                OptionSpec.optional(
                    NUMBERS,
                    "N",
                    "numbers the median job sorts through its one reducer (10 bytes each in"
                        + " the shuffle)",
                    "24m"),
                OptionSpec.optional(
                    MAPS, "N", "input files, one map each; must exceed --" + IO_SORT_FACTOR, "24"),
                OptionSpec.optional(
                    REDUCE_HEAP_MB,
                    "MB",
                    "the reducer's -Xmx in the spilling conditions (default: a tenth of"
                        + " the reducer's input, the paper's ratio)",
                    "24"),
                OptionSpec.optional(
                    IO_SORT_FACTOR,
                    "N",
                    "mapreduce.task.io.sort.factor: runs merged per pass",
                    "10"),
                OptionSpec.optional(
                    SPONGE_POOL_MB,
                    "MB",
                    "each NodeManager's sponge (and stock-tmpfs's tmpfs); auto = "
                        + (int) (AUTO_POOL_SHARE * 100)
                        + "% of the largest reducer input among the jobs",
                    AUTO),
                // The paper's 1 MB chunks sat next to 1 GB task heaps. A 24 MB reducer merging two
                // dozen
                // runs from remote
                // sponges needs a read buffer per run in direct memory, which HotSpot caps at -Xmx:
                // smaller
                // chunks keep the
                // ratio of chunk to heap nearer the paper's.
                OptionSpec.optional(
                    CHUNK_SIZE, "SIZE", "levee.sponge.chunk.size on every node (4k..1g)", "256k"),
                OptionSpec.optional(
                    CONDITIONS,
                    "LIST",
                    "comma-separated, of " + String.join(", ", Condition.labels()),
                    String.join(",", Condition.DEFAULT.stream().map(c -> c.label).toList())),
                OptionSpec.optional(
                    VARIANTS,
                    "LIST",
                    "comma-separated, of "
                        + String.join(", ", Variant.labels())
                        + " (stock is required: every ratio is to it; the no-spill condition runs stock and"
                        + " spongefiles only)",
                    String.join(",", Variant.labels())),
                OptionSpec.optional(
                    REPETITIONS,
                    "N",
                    "runs of every condition and variant (order alternates)",
                    "1"),
                OptionSpec.optional(
                    DISK_READERS,
                    "N",
                    "background O_DIRECT readers on the spill disk (disk-contention)",
                    "2"),
                OptionSpec.optional(
                    DISK_READER_FILE, "SIZE", "file each background reader scans", "1g"),
                OptionSpec.optional(
                    SQUEEZE_LEAVE,
                    "SIZE",
                    "memory-pressure: pin memory until MemAvailable is this (>= 1g);"
                        + " the pin shrinks whenever MemAvailable falls below half of it",
                    "3g"),
                OptionSpec.optional(
                    SQUEEZE_MAX, "SIZE", "memory-pressure: never pin more than this", "20g"),
                OptionSpec.optional(
                    CO_RUNNER, "on|off", "run a small sort alone and next to each variant", "on"),
                OptionSpec.optional(
                    CO_RUNNER_RECORDS, "N", "lines (~100 bytes) the co-runner sorts", "400k"),
                OptionSpec.optional(
                    JOB_TIMEOUT,
                    "SECONDS",
                    "a job still running after this is killed and recorded failed",
                    "1800"),
                OptionSpec.optional(
                    PAGES,
                    "N",
                    "web pages the Pig jobs read (about 100 bytes each; "
                        + "the largest domain holds a fifth, English half)",
                    "2m"),
                OptionSpec.optional(
                    PIG_REDUCE_HEAP_MB,
                    "MB",
                    "the Pig jobs' reducer -Xmx in the spilling conditions (Pig needs more than"
                        + " the Median reducer's to start)",
                    "128"),
                OptionSpec.optional(
                    PIG_NO_SPILL_HEAP_MB,
                    "MB",
                    "the Pig jobs' reducer -Xmx in the no-spill condition (at most "
                        + MAX_NO_SPILL_HEAP_MB
                        + ": its container must fit a NodeManager beside the AM)",
                    "1024"),
                OptionSpec.flag(
                    QUICK,
                    "a smoke run (3-5 minutes per job and arm set): "
                        + new java.util.TreeMap<>(QUICK_PRESET)
                        + " unless given")));
    specs.addAll(DiskChoice.options());
    return specs;
  }

  static MedianSettings from(ParsedOptions o) {
    boolean quick = o.flag(QUICK);
    List<Workload> jobs = jobs(o.string(JOBS));
    long numbers = reparse(o, quick, NUMBERS).longAtLeast(NUMBERS, 1000);
    int maps = reparse(o, quick, MAPS).intIn(MAPS, 2, 10_000);
    int heap = reparse(o, quick, REDUCE_HEAP_MB).intIn(REDUCE_HEAP_MB, 16, 4096);
    int factor = o.intIn(IO_SORT_FACTOR, 2, 1000);
    if (maps <= factor) {
      throw new BadArgumentException(
          "--"
              + MAPS
              + " "
              + maps
              + " must exceed --"
              + IO_SORT_FACTOR
              + " "
              + factor
              + ": with no more map outputs than one merge pass takes, stock never merges in rounds");
    }
    if (numbers < maps) {
      throw new BadArgumentException(
          "--"
              + NUMBERS
              + " "
              + numbers
              + " must be at least --"
              + MAPS
              + " "
              + maps
              + " (every map needs input)");
    }
    long chunk = o.bytesAtLeast(CHUNK_SIZE, 4096);
    if (chunk > (1L << 30)) {
      throw new BadArgumentException(
          "--" + CHUNK_SIZE + " " + o.string(CHUNK_SIZE) + ": at most 1g");
    }
    List<Condition> conditions = conditions(o.string(CONDITIONS));
    List<Variant> variants = variants(o.string(VARIANTS));
    int readers = o.intIn(DISK_READERS, 1, 16);
    long readerFile = reparse(o, quick, DISK_READER_FILE).bytesAtLeast(DISK_READER_FILE, 16L << 20);
    long leave = o.bytesAtLeast(SQUEEZE_LEAVE, SqueezePlan.MIN_LEAVE_BYTES);
    long max = o.bytesAtLeast(SQUEEZE_MAX, 0);
    boolean coRunner =
        switch (o.string(CO_RUNNER)) {
          case "on" -> true;
          case "off" -> false;
          default ->
              throw new BadArgumentException(
                  "--" + CO_RUNNER + ": expected on or off, got '" + o.string(CO_RUNNER) + "'");
        };
    long coRecords = reparse(o, quick, CO_RUNNER_RECORDS).longAtLeast(CO_RUNNER_RECORDS, 1000);
    long timeout = o.intIn(JOB_TIMEOUT, 60, 86_400);
    long pages = reparse(o, quick, PAGES).longAtLeast(PAGES, 1000);
    int pool = poolMb(o.string(SPONGE_POOL_MB), largestReducerInput(jobs, numbers, pages));
    int pigHeap = o.intIn(PIG_REDUCE_HEAP_MB, 64, 4096);
    int pigNoSpillHeap = o.intIn(PIG_NO_SPILL_HEAP_MB, 64, MAX_NO_SPILL_HEAP_MB);
    if (pigNoSpillHeap <= pigHeap) {
      throw new BadArgumentException(
          "--"
              + PIG_NO_SPILL_HEAP_MB
              + " "
              + pigNoSpillHeap
              + " must exceed --"
              + PIG_REDUCE_HEAP_MB
              + " "
              + pigHeap
              + ": the no-spill line is the bigger heap");
    }
    int medianNoSpillHeap = NoSpillReducer.heapMb(NumbersInput.shuffleBytes(numbers));
    if (jobs.contains(Workload.MEDIAN)
        && conditions.contains(Condition.NO_SPILL)
        && medianNoSpillHeap > MAX_NO_SPILL_HEAP_MB) {
      throw new BadArgumentException(
          "--"
              + NUMBERS
              + " "
              + numbers
              + ": the no-spill condition would need a "
              + medianNoSpillHeap
              + " MB reducer, more than the "
              + MAX_NO_SPILL_HEAP_MB
              + " MB a NodeManager holds beside the AM; give fewer numbers or leave out"
              + " no-spill");
    }
    return new MedianSettings(
        jobs,
        numbers,
        maps,
        heap,
        factor,
        pool,
        o.string(CHUNK_SIZE).trim(),
        conditions,
        variants,
        o.intIn(REPETITIONS, 1, 100),
        readers,
        readerFile,
        leave,
        max,
        coRunner,
        coRecords,
        timeout,
        pages,
        pigHeap,
        pigNoSpillHeap,
        quick);
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
        "--"
            + SPONGE_POOL_MB
            + ": expected auto or a whole number of MB from 1 to "
            + (1 << 20)
            + ", got '"
            + value
            + "'");
  }

  static List<Workload> jobs(String list) {
    Set<Workload> out = new LinkedHashSet<>();
    for (String item : list.split(",")) {
      String t = item.trim();
      if (t.isEmpty()) {
        continue;
      }
      if (!Workload.labels().contains(t)) {
        throw new BadArgumentException(
            "--"
                + JOBS
                + ": unknown job '"
                + t
                + "'; allowed: "
                + String.join(", ", Workload.labels()));
      }
      out.add(Workload.ofLabel(t));
    }
    if (out.isEmpty()) {
      throw new BadArgumentException(
          "--" + JOBS + ": name at least one of " + String.join(", ", Workload.labels()));
    }
    // In the paper's order, whatever the order given.
    return java.util.Arrays.stream(Workload.values()).filter(out::contains).toList();
  }

  static List<Condition> conditions(String list) {
    Set<Condition> out = new LinkedHashSet<>();
    for (String item : list.split(",")) {
      String t = item.trim();
      if (t.isEmpty()) {
        continue;
      }
      if (!Condition.labels().contains(t)) {
        throw new BadArgumentException(
            "--"
                + CONDITIONS
                + ": unknown condition '"
                + t
                + "'; allowed: "
                + String.join(", ", Condition.labels()));
      }
      out.add(Condition.ofLabel(t));
    }
    if (out.isEmpty()) {
      throw new BadArgumentException(
          "--" + CONDITIONS + ": name at least one of " + String.join(", ", Condition.labels()));
    }
    return new ArrayList<>(out);
  }

  static List<Variant> variants(String list) {
    Set<Variant> out = new LinkedHashSet<>();
    for (String item : list.split(",")) {
      String t = item.trim();
      if (t.isEmpty()) {
        continue;
      }
      if (!Variant.labels().contains(t)) {
        throw new BadArgumentException(
            "--"
                + VARIANTS
                + ": unknown variant '"
                + t
                + "'; allowed: "
                + String.join(", ", Variant.labels()));
      }
      out.add(Variant.ofLabel(t));
    }
    if (!out.contains(Variant.STOCK)) {
      throw new BadArgumentException(
          "--" + VARIANTS + " " + list + ": must include stock (every ratio is to stock)");
    }
    // In the suite's fixed order, so the rotation between repetitions does not depend on how the
    // list was written.
    return java.util.Arrays.stream(Variant.values()).filter(out::contains).toList();
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
    return p;
  }

  /**
   * One option with the preset applied, parsed again so that the typed getters' checks and messages
   * apply.
   */
  private static ParsedOptions reparse(ParsedOptions o, boolean quick, String name) {
    String value =
        quick && !o.isGiven(name) && QUICK_PRESET.containsKey(name)
            ? QUICK_PRESET.get(name)
            : o.string(name);
    OptionSpec spec =
        options().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    return ParsedOptions.parse(List.of(spec), List.of("--" + name, value));
  }
}
