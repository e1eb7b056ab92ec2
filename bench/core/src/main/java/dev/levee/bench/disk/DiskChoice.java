package dev.levee.bench.disk;

import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import dev.levee.bench.results.RepoLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code --disk real|emulated} choice a disk-bound suite offers: its files go to the real disk
 * under the directory it was given, or to an {@link EmulatedDisk} mounted there for the run.
 */
public final class DiskChoice {
  public static final String DISK = "disk";
  public static final String BANDWIDTH = "emulated-disk-mb";
  public static final String SEEK = "emulated-disk-seek-ms";
  public static final String CACHE = "emulated-disk-cache-mb";

  private DiskChoice() {}

  public static List<OptionSpec> options() {
    return List.of(
        OptionSpec.optional(
            DISK,
            "real|emulated",
            "real: this machine's disk; emulated: a spinning disk emulated through FUSE over the"
                + " same directory (root, /dev/fuse and Go needed; every result line says which)",
            "real"),
        OptionSpec.optional(
            BANDWIDTH,
            "MB/S",
            "with --disk emulated: sequential rate of the emulated disk (1 to 100000)",
            fmt(DiskModel.SEVEN_THOUSAND_RPM.bandwidthMb())),
        OptionSpec.optional(
            SEEK,
            "MS",
            "with --disk emulated: time of one seek (0 to 1000)",
            fmt(DiskModel.SEVEN_THOUSAND_RPM.seekMs())),
        OptionSpec.optional(
            CACHE,
            "MB",
            "with --disk emulated: dirty data buffered writes may leave in the page cache before"
                + " they wait for the disk (0 for write-through, to 65536); O_SYNC, O_DSYNC and"
                + " O_DIRECT writes always wait",
            Integer.toString(DiskModel.SEVEN_THOUSAND_RPM.writeCacheMb())));
  }

  /**
   * The place the suite's disk files go for this run: {@code realDir} itself, or an emulated disk
   * mounted in a new directory under it (removed when the place is closed).
   */
  public static DiskPlace open(ParsedOptions o, Path realDir, PrintStream err)
      throws IOException, InterruptedException {
    if (o.choice(DISK, List.of("real", "emulated")).equals("real")) {
      return DiskPlace.real(realDir);
    }
    DiskModel model =
        new DiskModel(
            o.doubleIn(BANDWIDTH, 1, 100_000, false),
            o.doubleIn(SEEK, 0, 1000, false),
            o.intIn(CACHE, 0, 65_536));
    Path work = realDir.resolve("levee-emulated-disk-" + ProcessHandle.current().pid());
    EmulatedDisk disk = EmulatedDisk.mount(RepoLayout.repoRoot(Path.of("")), work, model);
    err.println("disk: " + disk);
    return DiskPlace.emulated(disk, work, err);
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }
}
