package dev.levee.bench.hadoop.themis;

import dev.levee.bench.report.Summary;
import dev.levee.bench.results.Measurement;
import dev.levee.bench.results.ResultsStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The disk line: the medians of physical-limits' sequential write (fsync'd) and O_DIRECT read
 * probes, from its results file. A sort phase reads and writes the same bytes on this machine's one
 * disk, so the most it can sort is 1 / (1/read + 1/write) MB/s.
 */
record DiskBandwidth(double readMbPerS, double writeMbPerS) {
  static DiskBandwidth fromResults(Path resultsDir) throws IOException {
    Path file = resultsDir.resolve("physical-limits.jsonl");
    if (!Files.exists(file)) {
      return null;
    }
    List<Measurement> all = new ResultsStore(resultsDir).read(file);
    Double read = median(all, "disk-read-direct");
    Double write = median(all, "disk-write-fsync");
    return read == null || write == null ? null : new DiskBandwidth(read, write);
  }

  private static Double median(List<Measurement> all, String variant) {
    List<Double> v =
        all.stream()
            .filter(m -> m.variant().equals(variant) && m.metrics().containsKey("mb_per_s"))
            .map(m -> m.metrics().get("mb_per_s"))
            .toList();
    return v.isEmpty() ? null : Summary.of(v).median();
  }

  /** MB/s a phase that reads and writes every byte once can move through one disk. */
  double phaseBound() {
    return 1 / (1 / readMbPerS + 1 / writeMbPerS);
  }
}
