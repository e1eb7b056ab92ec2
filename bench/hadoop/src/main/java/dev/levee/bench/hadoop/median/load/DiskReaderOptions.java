package dev.levee.bench.hadoop.median.load;

import dev.levee.bench.cli.Converters;
import dev.levee.bench.cli.Range;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --disk-readers} and {@code --disk-reader-file}, the background readers ({@link
 * DiskReaders}) that contend for the NodeManagers' disk: one declaration for every suite that runs
 * them, mixed into its options.
 */
public final class DiskReaderOptions {
  @Option(
      names = "--disk-readers",
      paramLabel = "N",
      description =
          "background O_DIRECT readers on the NodeManagers' disk while a run is contended (the"
              + " demo's SpongeFiles row, sponge-median's disk-contention condition); 0: none")
  @Range(min = 0, max = 16)
  int readers = 2;

  @Option(
      names = "--disk-reader-file",
      paramLabel = "SIZE",
      converter = Converters.ByteSize.class,
      defaultValue = "1g",
      description = "the file each background reader scans")
  @Range(min = 16 << 20)
  long fileBytes;

  public int readers() {
    return readers;
  }

  public long fileBytes() {
    return fileBytes;
  }

  /**
   * Starts the readers under {@code dir} (a disk, not tmpfs), or returns null if there are none.
   */
  public DiskReaders startUnder(Path dir) throws IOException {
    return readers == 0 ? null : DiskReaders.start(dir, readers, fileBytes);
  }
}
