package dev.levee.bench.hadoop.sponge;

import dev.levee.bench.cli.BadArgumentException;
import dev.levee.bench.cli.OptionSpec;
import dev.levee.bench.cli.ParsedOptions;
import dev.levee.bench.disk.DiskChoice;
import dev.levee.sponge.config.SpongeConf;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

  static final String CHUNKS = "chunks";
  static final String CHUNK_SIZE = "chunk-size";
  static final String BATCH = "batch";
  static final String DISK_DIR = "disk-dir";
  static final String DISK_FILE_SIZE = "disk-file-size";
  static final String BACKGROUND_STREAMS = "background-streams";
  static final String BACKGROUND_FILE_SIZE = "background-file-size";
  static final String MEMORY_PRESSURE = "memory-pressure";
  static final String VARIANTS = "variants";
  static final String IN_FLIGHT = "in-flight";
  static final String REPETITIONS = "repetitions";
  static final String LIMITS = "limits";
  static final String QUICK = "quick";

  static final int MAX_CHUNK_SIZE = 64 << 20;

  /** Option name -> value under {@code --quick} (about 30 s instead of minutes). */
  static final Map<String, String> QUICK_PRESET =
      Map.of(
          CHUNKS, "400",
          BATCH, "100",
          DISK_FILE_SIZE, "512m",
          BACKGROUND_FILE_SIZE, "256m");

  static List<OptionSpec> options() {
    List<OptionSpec> specs =
        new ArrayList<>(
            List.of(
                OptionSpec.optional(
                    CHUNKS,
                    "N",
                    "chunks spilled (and read back) per medium; the paper's 10,000",
                    "10000"),
                OptionSpec.optional(
                    CHUNK_SIZE, "SIZE", "bytes per chunk (a multiple of 4k, at most 64m)", "1m"),
                OptionSpec.optional(
                    BATCH, "N", "chunks held at once: written, read back, then freed", "256"),
                OptionSpec.optional(
                    DISK_DIR,
                    "DIR",
                    "directory on the disk spills go to (tmpfs refused)",
                    "/var/tmp"),
                OptionSpec.optional(
                    DISK_FILE_SIZE,
                    "SIZE",
                    "span of the disk file random offsets are drawn from",
                    "2g"),
                OptionSpec.optional(
                    BACKGROUND_STREAMS, "N", "background reader/writer threads on the disk", "2"),
                OptionSpec.optional(
                    BACKGROUND_FILE_SIZE,
                    "SIZE",
                    "file each background stream writes and reads",
                    "1g"),
                OptionSpec.optional(
                    MEMORY_PRESSURE,
                    "SIZE",
                    "memory pinned (tmpfs) for the disk-bg-io-mem medium; 0 skips that medium",
                    "0"),
                OptionSpec.optional(
                    VARIANTS,
                    "LIST",
                    "comma-separated media: " + String.join(",", Medium.variants()),
                    "all"),
                OptionSpec.optional(
                    IN_FLIGHT,
                    "N",
                    "chunks the remote-spongefile medium keeps in flight per file ("
                        + SpongeConf.WRITE_MAX_IN_FLIGHT.name()
                        + ", 1.."
                        + SpongeConf.MAX_IN_FLIGHT_CHUNKS
                        + ")",
                    Integer.toString(SpongeConf.WRITE_MAX_IN_FLIGHT.defaultValue())),
                OptionSpec.optional(REPETITIONS, "N", "runs of every medium", "1"),
                OptionSpec.optional(
                    LIMITS,
                    "DIR",
                    "results dir holding physical-limits.jsonl (default <repo>/bench/results)",
                    ""),
                OptionSpec.flag(QUICK, "a ~30 s run: " + QUICK_PRESET + " unless given")));
    specs.addAll(DiskChoice.options());
    return specs;
  }

  static MicroSettings from(ParsedOptions o) {
    boolean quick = o.flag(QUICK);
    long chunks = longAtLeast(o, quick, CHUNKS, 1);
    if (chunks > 10_000_000) {
      throw new BadArgumentException("--" + CHUNKS + ": at most 10,000,000, got " + chunks);
    }
    long chunkSize = o.bytesAtLeast(CHUNK_SIZE, 4096);
    if (chunkSize > MAX_CHUNK_SIZE || chunkSize % 4096 != 0) {
      throw new BadArgumentException(
          "--"
              + CHUNK_SIZE
              + ": must be a multiple of 4k (4096 bytes) between 4k and 64m,"
              + " got "
              + o.string(CHUNK_SIZE));
    }
    int batch = (int) Math.min(chunks, intIn(o, quick, BATCH, 1, 65_536));
    long diskFile = bytesAtLeast(o, quick, DISK_FILE_SIZE, chunkSize);
    if (diskFile / chunkSize < batch) {
      throw new BadArgumentException(
          "--"
              + DISK_FILE_SIZE
              + " "
              + o.string(DISK_FILE_SIZE)
              + " holds "
              + diskFile / chunkSize
              + " chunks; it must hold at least a batch (--"
              + BATCH
              + " "
              + batch
              + ")");
    }
    String dir = o.string(DISK_DIR);
    if (dir.isBlank()) {
      throw new BadArgumentException("--" + DISK_DIR + " must name a directory");
    }
    int streams = o.intIn(BACKGROUND_STREAMS, 1, 64);
    long bgFile = bytesAtLeast(o, quick, BACKGROUND_FILE_SIZE, 4L << 20);
    long pressure = o.bytesAtLeast(MEMORY_PRESSURE, 0);
    List<Medium> media = media(o.string(VARIANTS), pressure);
    return new MicroSettings(
        chunks,
        (int) chunkSize,
        batch,
        Path.of(dir),
        diskFile,
        streams,
        bgFile,
        pressure,
        media,
        o.intIn(IN_FLIGHT, 1, SpongeConf.MAX_IN_FLIGHT_CHUNKS),
        o.intIn(REPETITIONS, 1, 100),
        o.string(LIMITS),
        quick);
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
            "--"
                + VARIANTS
                + ": unknown medium '"
                + t
                + "'; allowed: all or any of "
                + String.join(",", Medium.variants()));
      }
      out.add(Medium.ofVariant(t));
    }
    if (out.contains(Medium.DISK_BACKGROUND_IO_MEMORY) && pressureBytes == 0) {
      throw new BadArgumentException(
          "--"
              + VARIANTS
              + " includes "
              + Medium.DISK_BACKGROUND_IO_MEMORY.variant
              + " but --"
              + MEMORY_PRESSURE
              + " is 0; give the memory to pin, e.g. --"
              + MEMORY_PRESSURE
              + " 8g");
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

  private static String value(ParsedOptions o, boolean quick, String name) {
    return quick && !o.isGiven(name) && QUICK_PRESET.containsKey(name)
        ? QUICK_PRESET.get(name)
        : o.string(name);
  }

  private static long longAtLeast(ParsedOptions o, boolean quick, String name, long min) {
    return reparse(o, quick, name).longAtLeast(name, min);
  }

  private static int intIn(ParsedOptions o, boolean quick, String name, int min, int max) {
    return reparse(o, quick, name).intIn(name, min, max);
  }

  private static long bytesAtLeast(ParsedOptions o, boolean quick, String name, long min) {
    return reparse(o, quick, name).bytesAtLeast(name, min);
  }

  /**
   * One option with the preset applied, parsed again so that the typed getters' checks and messages
   * apply.
   */
  private static ParsedOptions reparse(ParsedOptions o, boolean quick, String name) {
    OptionSpec spec =
        options().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    return ParsedOptions.parse(List.of(spec), List.of("--" + name, value(o, quick, name)));
  }
}
