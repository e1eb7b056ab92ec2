package dev.levee.bench.disk;

import dev.levee.bench.cli.Choices;
import dev.levee.bench.cli.Range;
import dev.levee.bench.cli.Validated;
import dev.levee.bench.results.RepoLayout;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * The {@code --disk real|emulated} choice a disk-bound suite offers (a picocli mixin of its
 * options): its files go to the real disk under the directory it was given, or to an {@link
 * EmulatedDisk} mounted there for the run.
 */
public final class DiskChoice implements Validated {
  @Option(
      names = "--disk",
      paramLabel = "real|emulated",
      description =
          "real: this machine's disk; emulated: a spinning disk emulated through FUSE over the"
              + " same directory (root, /dev/fuse and Go needed; every result line says which)")
  String disk = "real";

  @Option(
      names = "--emulated-disk-mb",
      paramLabel = "MB/S",
      description = "with --disk emulated: sequential rate of the emulated disk")
  @Range(min = 1, max = 100_000)
  double bandwidthMb = DiskModel.SEVEN_THOUSAND_RPM.bandwidthMb();

  @Option(
      names = "--emulated-disk-seek-ms",
      paramLabel = "MS",
      description = "with --disk emulated: time of one seek")
  @Range(min = 0, max = 1000)
  double seekMs = DiskModel.SEVEN_THOUSAND_RPM.seekMs();

  @Option(
      names = "--emulated-disk-cache-mb",
      paramLabel = "MB",
      description =
          "with --disk emulated: dirty data buffered writes may leave in the page cache before"
              + " they wait for the disk (0 for write-through); O_SYNC, O_DSYNC and O_DIRECT"
              + " writes always wait")
  @Range(min = 0, max = 65_536)
  int cacheMb = DiskModel.SEVEN_THOUSAND_RPM.writeCacheMb();

  @Override
  public void validate() {
    Choices.oneOf("--disk", disk, List.of("real", "emulated"));
  }

  public boolean emulated() {
    return disk.equals("emulated");
  }

  /**
   * The place the suite's disk files go for this run: {@code realDir} itself, or an emulated disk
   * mounted in a new directory under it (removed when the place is closed).
   */
  public DiskPlace open(Path realDir, PrintStream err) throws IOException, InterruptedException {
    if (!emulated()) {
      return DiskPlace.real(realDir);
    }
    Path work = realDir.resolve("levee-emulated-disk-" + ProcessHandle.current().pid());
    EmulatedDisk disk = EmulatedDisk.mount(RepoLayout.repoRoot(Path.of("")), work, model());
    err.println("disk: " + disk);
    return DiskPlace.emulated(disk, work, err);
  }

  /**
   * With {@code --disk emulated}: one more emulated spindle of the same model for each of {@code
   * nodes} nodes, in new directories under {@code realDir}.
   */
  public NodeDisks openPerNode(Path realDir, int nodes, PrintStream err)
      throws IOException, InterruptedException {
    if (!emulated()) {
      throw new IllegalStateException("a spindle per node is an emulated disk's; --disk is real");
    }
    return NodeDisks.mount(RepoLayout.repoRoot(Path.of("")), realDir, nodes, model(), err);
  }

  private DiskModel model() {
    return new DiskModel(bandwidthMb, seekMs, cacheMb);
  }
}
