package dev.levee.bench.hadoop.themis;

import dev.levee.bench.disk.DiskModel;
import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.ResultsStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The disk line: the medians of physical-limits' sequential write (fsync'd) and O_DIRECT read
 * probes, from its results file. A sort phase reads and writes the same bytes on this machine's one
 * disk, so the most it can sort is 1 / (1/read + 1/write) MB/s. On the emulated disk the line is
 * what physical-limits measured through the emulator with the same model (its own overhead keeps it
 * below the model's rate), or the model's rate when no such run is on record.
 *
 * @param source where the figures come from, for tables
 */
record DiskBandwidth(double readMbPerS, double writeMbPerS, String source) {
  private static final String READ = "disk-read-direct";
  private static final String WRITE = "disk-write-fsync";
  private static final String EMULATED = "-emulated";

  static DiskBandwidth fromResults(Path resultsDir) throws IOException {
    List<Measurement> all = physicalLimits(resultsDir);
    Double read = median(all, READ, m -> true);
    Double write = median(all, WRITE, m -> true);
    return read == null || write == null ? null : new DiskBandwidth(read, write, "physical-limits");
  }

  /** The emulated disk's line for {@code model}, measured if {@code resultsDir} has it. */
  static DiskBandwidth emulated(Path resultsDir, DiskModel model) throws IOException {
    Predicate<Measurement> sameModel =
        m ->
            m.params().get("emulated_disk_mb_per_s") instanceof Number bw
                && m.params().get("emulated_disk_seek_ms") instanceof Number seek
                && bw.doubleValue() == model.bandwidthMb()
                && seek.doubleValue() == model.seekMs();
    List<Measurement> all = physicalLimits(resultsDir);
    Double read = median(all, READ + EMULATED, sameModel);
    Double write = median(all, WRITE + EMULATED, sameModel);
    if (read == null || write == null) {
      return new DiskBandwidth(
          model.bandwidthMb(),
          model.bandwidthMb(),
          String.format(
              Locale.ROOT,
              "the %s model's rate; no physical-limits --disk emulated run with it",
              model.label()));
    }
    return new DiskBandwidth(
        read,
        write,
        String.format(
            Locale.ROOT,
            "physical-limits --disk emulated, %.0f MB/s %.1f ms seek model",
            model.bandwidthMb(),
            model.seekMs()));
  }

  private static List<Measurement> physicalLimits(Path resultsDir) throws IOException {
    Path file = resultsDir.resolve("physical-limits.jsonl");
    return Files.exists(file) ? new ResultsStore(resultsDir).read(file) : List.of();
  }

  private static Double median(List<Measurement> all, String variant, Predicate<Measurement> keep) {
    List<Double> v =
        all.stream()
            .filter(
                m ->
                    m.variant().equals(variant)
                        && m.metrics().containsKey("mb_per_s")
                        && keep.test(m))
            .map(m -> m.metrics().get("mb_per_s"))
            .toList();
    return v.isEmpty() ? null : Summary.of(v).median();
  }

  /** MB/s a phase that reads and writes every byte once can move through one disk. */
  double phaseBound() {
    return 1 / (1 / readMbPerS + 1 / writeMbPerS);
  }
}
