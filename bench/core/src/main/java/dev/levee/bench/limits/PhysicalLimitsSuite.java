package dev.levee.bench.limits;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.Choices;
import dev.levee.bench.cli.Converters;
import dev.levee.bench.cli.Range;
import dev.levee.bench.disk.DiskChoice;
import dev.levee.bench.disk.DiskPlace;
import dev.levee.bench.progress.ProgressReporter;
import dev.levee.bench.report.Summary;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code physical-limits}: what this machine can move per second, so that benchmark results can be
 * stated as a fraction of the limit. Memory copy (heap and direct), one loopback TCP connection,
 * disk sequential write (fsync) and read (O_DIRECT), and mmap writes to tmpfs. Each probe runs an
 * unrecorded warm-up where the JIT matters, then the repetitions, one result line per repetition;
 * the table shows the median and min..max.
 */
public final class PhysicalLimitsSuite implements Suite {
  static final List<String> PROBES = List.of("memcpy", "tcp", "disk", "shm");

  @Override
  public String name() {
    return "physical-limits";
  }

  @Override
  public String summary() {
    return "memcpy, loopback TCP, disk write/read and /dev/shm mmap bandwidth of this machine";
  }

  /** The suite's options. */
  static final class Options {
    @Option(
        names = "--repetitions",
        paramLabel = "N",
        description = "recorded repetitions per probe")
    @Range(min = 1, max = 1000)
    int repetitions = 5;

    @Option(
        names = "--probes",
        paramLabel = "LIST",
        split = ",",
        description = "comma-separated subset of memcpy, tcp, disk, shm")
    List<String> probes = PROBES;

    @Option(
        names = "--memcpy-buffer",
        paramLabel = "SIZE",
        defaultValue = "256m",
        converter = Converters.ByteSize.class,
        description =
            "size of each memcpy buffer (well above the L3 cache; at most one Java array)")
    @Range(min = 1 << 20, max = Integer.MAX_VALUE - 8)
    long memcpyBuffer;

    @Option(
        names = "--memcpy-passes",
        paramLabel = "N",
        description = "copies of the whole buffer per repetition")
    @Range(min = 1, max = 10_000)
    int memcpyPasses = 4;

    @Option(
        names = "--tcp-bytes",
        paramLabel = "SIZE",
        defaultValue = "2g",
        converter = Converters.ByteSize.class,
        description = "bytes sent per TCP repetition")
    @Range(min = 1 << 20)
    long tcpBytes;

    @Option(
        names = "--disk-bytes",
        paramLabel = "SIZE",
        defaultValue = "1g",
        converter = Converters.ByteSize.class,
        description = "file size for the disk write and read probes (a multiple of 4m)")
    @Range(min = 1 << 20)
    long diskBytes;

    @Option(
        names = "--disk-dir",
        paramLabel = "DIR",
        description = "directory on the disk to measure")
    String diskDir = System.getProperty("java.io.tmpdir");

    @Option(
        names = "--disk-read",
        paramLabel = "MODE",
        description = "direct (O_DIRECT, fall back to cached with a warning) or cached")
    String diskRead = "direct";

    @Option(
        names = "--shm-bytes",
        paramLabel = "SIZE",
        defaultValue = "1g",
        converter = Converters.ByteSize.class,
        description = "mapped file size for the tmpfs probe")
    @Range(min = 1 << 20)
    long shmBytes;

    @Option(names = "--shm-dir", paramLabel = "DIR", description = "tmpfs directory")
    String shmDir = "/dev/shm";

    @Mixin DiskChoice disk = new DiskChoice();
  }

  @Override
  public Object newOptions() {
    return new Options();
  }

  @Override
  public void run(SuiteContext ctx) throws Exception {
    Options o = ctx.options(Options.class);
    int repetitions = o.repetitions;
    Set<String> probes = probeSet(String.join(",", o.probes));
    List<BandwidthProbe> plan = new ArrayList<>();
    if (probes.contains("memcpy")) {
      plan.add(new MemcpyProbe(false, (int) o.memcpyBuffer, o.memcpyPasses));
      plan.add(new MemcpyProbe(true, (int) o.memcpyBuffer, o.memcpyPasses));
    }
    if (probes.contains("tcp")) {
      plan.add(new LoopbackTcpProbe(o.tcpBytes));
    }
    Path diskDir = null;
    long diskBytes = o.diskBytes;
    boolean direct = false;
    if (probes.contains("disk")) {
      diskDir = existingDir("disk-dir", o.diskDir);
      if (diskBytes % DiskFiles.CHUNK != 0) {
        throw new BadArgumentException(
            "--disk-bytes: must be a multiple of 4m (O_DIRECT reads whole aligned blocks), got "
                + diskBytes);
      }
      direct =
          Choices.oneOf("--disk-read", o.diskRead, List.of("direct", "cached")).equals("direct");
    }
    if (probes.contains("shm")) {
      Path dir = existingDir("shm-dir", o.shmDir);
      plan.add(new ShmMmapProbe(dir, o.shmBytes, true));
      plan.add(new ShmMmapProbe(dir, o.shmBytes, false));
    }

    List<Row> rows = new ArrayList<>();
    for (BandwidthProbe probe : plan) {
      rows.add(runProbe(ctx, probe, repetitions));
    }
    if (diskDir != null) {
      try (DiskPlace place = o.disk.open(diskDir, ctx.err())) {
        rows.add(
            runProbe(
                ctx,
                new OnDiskPlace(new DiskWriteProbe(place.dir(), diskBytes), place),
                repetitions));
        rows.add(
            runProbe(
                ctx,
                new OnDiskPlace(new DiskReadProbe(place.dir(), diskBytes, direct), place),
                repetitions));
      }
    }
    printTable(ctx.out(), rows, repetitions);
  }

  private Row runProbe(SuiteContext ctx, BandwidthProbe probe, int repetitions) throws Exception {
    List<Double> mbps = new ArrayList<>();
    try (probe) {
      // A probe may only learn its variant in setUp (the disk read finds out whether O_DIRECT
      // works).
      probe.setUp();
      runRepetitions(ctx, probe, repetitions, mbps);
    }
    return new Row(probe.variant(), probe.method(), Summary.of(mbps));
  }

  private static void runRepetitions(
      SuiteContext ctx, BandwidthProbe probe, int repetitions, List<Double> mbps) throws Exception {
    try (ProgressReporter progress = ctx.progress(probe.variant(), repetitions, "reps")) {
      if (probe.wantsWarmUp()) {
        probe.measure();
      }
      for (int rep = 0; rep < repetitions; rep++) {
        Sample s = probe.measure();
        mbps.add(s.mbPerSecond());
        ctx.record(
            probe.variant(),
            probe.params(),
            Map.of("mb_per_s", s.mbPerSecond(), "seconds", s.seconds()),
            rep);
        progress.advance(1);
      }
    }
  }

  private static Set<String> probeSet(String list) {
    Set<String> chosen = new LinkedHashSet<>();
    for (String p : list.split(",")) {
      String t = p.trim();
      if (!PROBES.contains(t)) {
        throw new BadArgumentException(
            "--probes: unknown probe '" + t + "'; allowed: " + String.join(", ", PROBES));
      }
      chosen.add(t);
    }
    return chosen;
  }

  private static Path existingDir(String option, String value) {
    Path p = Path.of(value);
    if (!Files.isDirectory(p) || !Files.isWritable(p)) {
      throw new BadArgumentException(
          "--" + option + ": '" + value + "' is not a writable directory");
    }
    return p;
  }

  private static void printTable(PrintStream out, List<Row> rows, int repetitions) {
    out.println();
    out.printf(
        Locale.ROOT,
        "physical limits (MB/s, MB = 10^6 bytes; median of %d, min..max, spread = (max-min)/median)%n",
        repetitions);
    out.printf(
        Locale.ROOT,
        "%-20s %10s %10s %10s %7s  %s%n",
        "variant",
        "median",
        "min",
        "max",
        "spread",
        "method");
    for (Row r : rows) {
      out.printf(
          Locale.ROOT,
          "%-20s %10.0f %10.0f %10.0f %6.1f%%  %s%n",
          r.variant,
          r.summary.median(),
          r.summary.min(),
          r.summary.max(),
          100 * r.summary.relativeSpread(),
          r.method);
    }
  }

  private record Row(String variant, String method, Summary summary) {}
}
