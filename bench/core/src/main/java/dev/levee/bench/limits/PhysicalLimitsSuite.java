package dev.levee.bench.limits;

import dev.levee.bench.Suite;
import dev.levee.bench.SuiteContext;
import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
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

  @Override
  public List<OptionSpec> options() {
    List<OptionSpec> specs = new ArrayList<>();
    specs.addAll(
        List.of(
            OptionSpec.optional("repetitions", "N", "recorded repetitions per probe", "5"),
            OptionSpec.optional(
                "probes",
                "LIST",
                "comma-separated subset of " + String.join(",", PROBES),
                String.join(",", PROBES)),
            OptionSpec.optional(
                "memcpy-buffer",
                "SIZE",
                "size of each memcpy buffer (well above the L3 cache)",
                "256m"),
            OptionSpec.optional(
                "memcpy-passes", "N", "copies of the whole buffer per repetition", "4"),
            OptionSpec.optional("tcp-bytes", "SIZE", "bytes sent per TCP repetition", "2g"),
            OptionSpec.optional(
                "disk-bytes", "SIZE", "file size for the disk write and read probes", "1g"),
            OptionSpec.optional(
                "disk-dir",
                "DIR",
                "directory on the disk to measure",
                System.getProperty("java.io.tmpdir")),
            OptionSpec.optional(
                "disk-read",
                "MODE",
                "direct (O_DIRECT, fall back to cached with a warning) or cached",
                "direct"),
            OptionSpec.optional("shm-bytes", "SIZE", "mapped file size for the tmpfs probe", "1g"),
            OptionSpec.optional("shm-dir", "DIR", "tmpfs directory", "/dev/shm")));
    specs.addAll(DiskChoice.options());
    return specs;
  }

  @Override
  public void run(SuiteContext ctx) throws Exception {
    ParsedOptions o = ctx.options();
    int repetitions = o.intIn("repetitions", 1, 1000);
    Set<String> probes = probeSet(o.string("probes"));
    List<BandwidthProbe> plan = new ArrayList<>();
    if (probes.contains("memcpy")) {
      long buffer = o.bytesAtLeast("memcpy-buffer", 1 << 20);
      if (buffer > Integer.MAX_VALUE - 8) {
        throw new BadArgumentException(
            "--memcpy-buffer: at most 2g - 8 bytes (one Java array), got "
                + o.string("memcpy-buffer"));
      }
      int passes = o.intIn("memcpy-passes", 1, 10_000);
      plan.add(new MemcpyProbe(false, (int) buffer, passes));
      plan.add(new MemcpyProbe(true, (int) buffer, passes));
    }
    if (probes.contains("tcp")) {
      plan.add(new LoopbackTcpProbe(o.bytesAtLeast("tcp-bytes", 1 << 20)));
    }
    Path diskDir = null;
    long diskBytes = 0;
    boolean direct = false;
    if (probes.contains("disk")) {
      diskDir = existingDir("disk-dir", o.string("disk-dir"));
      diskBytes = o.bytesAtLeast("disk-bytes", 1 << 20);
      if (diskBytes % DiskFiles.CHUNK != 0) {
        throw new BadArgumentException(
            "--disk-bytes: must be a multiple of 4m (O_DIRECT reads whole aligned blocks), got "
                + o.string("disk-bytes"));
      }
      direct = o.choice("disk-read", List.of("direct", "cached")).equals("direct");
    }
    if (probes.contains("shm")) {
      Path dir = existingDir("shm-dir", o.string("shm-dir"));
      long bytes = o.bytesAtLeast("shm-bytes", 1 << 20);
      plan.add(new ShmMmapProbe(dir, bytes, true));
      plan.add(new ShmMmapProbe(dir, bytes, false));
    }

    List<Row> rows = new ArrayList<>();
    for (BandwidthProbe probe : plan) {
      rows.add(runProbe(ctx, probe, repetitions));
    }
    if (diskDir != null) {
      try (DiskPlace place = DiskChoice.open(o, diskDir, ctx.err())) {
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
