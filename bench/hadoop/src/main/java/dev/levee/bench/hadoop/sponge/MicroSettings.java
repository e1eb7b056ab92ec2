package dev.levee.bench.hadoop.sponge;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.Converters;
import dev.levee.bench.cli.Preset;
import dev.levee.bench.cli.Range;
import dev.levee.bench.cli.Sizes;
import dev.levee.bench.disk.DiskChoice;
import dev.levee.sponge.config.SpongeConf;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options of {@code sponge-micro}, validated, with the {@code --quick} preset applied to every
 * option the user did not give explicitly.
 */
record MicroSettings(
    long chunks,
    int chunkSize,
    int batch,
    Path diskDir,
    long diskFileBytes,
    int backgroundStreams,
    long backgroundFileBytes,
    long memoryPressureBytes,
    List<Medium> media,
    int inFlight,
    int repetitions,
    String limitsDir,
    boolean quick) {

  static final int MAX_CHUNK_SIZE = 64 << 20;

  /** The suite's options. */
  static final class Options {
    @Option(
        names = "--chunks",
        paramLabel = "N",
        description = "chunks spilled (and read back) per medium; the paper's 10,000")
    @Range(min = 1, max = 10_000_000)
    long chunks = 10_000;

    @Option(
        names = "--chunk-size",
        paramLabel = "SIZE",
        defaultValue = "1m",
        converter = Converters.ByteSize.class,
        description = "bytes per chunk (a multiple of 4k, at most 64m)")
    @Range(min = 4096, max = MAX_CHUNK_SIZE)
    long chunkSize;

    @Option(
        names = "--batch",
        paramLabel = "N",
        description = "chunks held at once: written, read back, then freed")
    @Range(min = 1, max = 65_536)
    int batch = 256;

    @Option(
        names = "--disk-dir",
        paramLabel = "DIR",
        description = "directory on the disk spills go to (tmpfs refused)")
    String diskDir = "/var/tmp";

    @Option(
        names = "--disk-file-size",
        paramLabel = "SIZE",
        defaultValue = "2g",
        converter = Converters.ByteSize.class,
        description = "span of the disk file random offsets are drawn from")
    long diskFileSize;

    @Option(
        names = "--background-streams",
        paramLabel = "N",
        description = "background reader/writer threads on the disk")
    @Range(min = 1, max = 64)
    int backgroundStreams = 2;

    @Option(
        names = "--background-file-size",
        paramLabel = "SIZE",
        defaultValue = "1g",
        converter = Converters.ByteSize.class,
        description = "file each background stream writes and reads")
    @Range(min = 4 << 20)
    long backgroundFileSize;

    @Option(
        names = "--memory-pressure",
        paramLabel = "SIZE",
        converter = Converters.ByteSize.class,
        description = "memory pinned (tmpfs) for the disk-bg-io-mem medium; 0 skips that medium")
    @Range(min = 0)
    long memoryPressure = 0;

    @Option(
        names = "--variants",
        paramLabel = "LIST",
        completionCandidates = MediumNames.class,
        description = "all, or comma-separated media of ${COMPLETION-CANDIDATES}")
    String variants = "all";

    @Option(
        names = "--in-flight",
        paramLabel = "N",
        description =
            "chunks the remote-spongefile medium keeps in flight per file"
                + " (levee.sponge.write.max-in-flight)")
    @Range(min = 1, max = SpongeConf.MAX_IN_FLIGHT_CHUNKS)
    int inFlight = SpongeConf.WRITE_MAX_IN_FLIGHT.defaultValue();

    @Option(names = "--repetitions", paramLabel = "N", description = "runs of every medium")
    @Range(min = 1, max = 100)
    int repetitions = 1;

    @Option(
        names = "--limits",
        paramLabel = "DIR",
        description = "results dir holding physical-limits.jsonl (default <repo>/bench/results)")
    String limits = "";

    @Option(
        names = "--quick",
        description =
            "a ~30 s run: --chunks 400 --batch 100 --disk-file-size 512m --background-file-size"
                + " 256m unless given")
    @Preset({"chunks=400", "batch=100", "disk-file-size=512m", "background-file-size=256m"})
    boolean quick;

    @Mixin DiskChoice disk = new DiskChoice();
  }

  /** The media's names, for the help. */
  static final class MediumNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return Medium.variants().iterator();
    }
  }

  static MicroSettings from(Options o) {
    long chunkSize = o.chunkSize;
    if (chunkSize % 4096 != 0) {
      throw new BadArgumentException(
          "--chunk-size: must be a multiple of 4k (4096 bytes) between 4k and 64m, got "
              + chunkSize);
    }
    int batch = (int) Math.min(o.chunks, o.batch);
    long diskFile = o.diskFileSize;
    if (diskFile / chunkSize < batch) {
      throw new BadArgumentException(
          "--disk-file-size "
              + Sizes.format(diskFile)
              + " holds "
              + diskFile / chunkSize
              + " chunks; it must hold at least a batch (--batch "
              + batch
              + ")");
    }
    if (o.diskDir.isBlank()) {
      throw new BadArgumentException("--disk-dir must name a directory");
    }
    return new MicroSettings(
        o.chunks,
        (int) chunkSize,
        batch,
        Path.of(o.diskDir),
        diskFile,
        o.backgroundStreams,
        o.backgroundFileSize,
        o.memoryPressure,
        media(o.variants, o.memoryPressure),
        o.inFlight,
        o.repetitions,
        o.limits,
        o.quick);
  }

  /** "all" is every medium, except the memory-pressure one when no pressure is asked for. */
  static List<Medium> media(String list, long pressureBytes) {
    Set<Medium> out = new LinkedHashSet<>();
    if (list.equals("all")) {
      for (Medium m : Medium.values()) {
        if (m != Medium.DISK_BACKGROUND_IO_MEMORY || pressureBytes > 0) {
          out.add(m);
        }
      }
      return List.copyOf(out);
    }
    for (String v : list.split(",")) {
      String t = v.trim();
      if (!Medium.variants().contains(t)) {
        throw new BadArgumentException(
            "--variants: unknown medium '"
                + t
                + "'; allowed: all or any of "
                + String.join(",", Medium.variants()));
      }
      out.add(Medium.ofVariant(t));
    }
    if (out.contains(Medium.DISK_BACKGROUND_IO_MEMORY) && pressureBytes == 0) {
      throw new BadArgumentException(
          "--variants includes "
              + Medium.DISK_BACKGROUND_IO_MEMORY.variant
              + " but --memory-pressure is 0; give the memory to pin, e.g. --memory-pressure 8g");
    }
    return new ArrayList<>(out);
  }

  /** The workload as recorded with every measurement (the same for every medium of a run). */
  Map<String, Object> params() {
    Map<String, Object> p = new LinkedHashMap<>();
    p.put("chunks", chunks);
    p.put("chunk_bytes", chunkSize);
    p.put("batch_chunks", batch);
    p.put("disk_dir", diskDir.toString());
    p.put("disk_file_bytes", diskFileBytes);
    p.put("disk_write_sync", "O_DSYNC");
    p.put("background_streams", backgroundStreams);
    p.put("background_file_bytes", backgroundFileBytes);
    p.put("memory_pressure_bytes", memoryPressureBytes);
    p.put("spongefile_in_flight_chunks", inFlight);
    return p;
  }
}
