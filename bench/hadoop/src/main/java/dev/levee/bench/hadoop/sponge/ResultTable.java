package dev.levee.bench.hadoop.sponge;

import static dev.levee.bench.hadoop.sponge.SpongeMicroSuite.fmt;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The Table 1 printout: one line per medium and repetition, then the goals checked against
 * the limits.
 */
final class ResultTable {
  private final List<SpongeMicroSuite.Row> rows;
  private final MicroSettings s;
  private final String disk;

  /** {@code disk} names the disk the disk media ran on: "real" or the emulated model. */
  ResultTable(List<SpongeMicroSuite.Row> rows, MicroSettings s, String disk) {
    this.rows = rows;
    this.s = s;
    this.disk = disk;
  }

  void print(PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%nsponge-micro: %,d chunks of %d KiB per medium, batches of %d; disk writes O_DSYNC at"
            + " random offsets in %d MiB of %s; disk: %s%n",
        s.chunks(),
        s.chunkSize() >> 10,
        s.batch(),
        s.diskFileBytes() >> 20,
        s.diskDir(),
        disk);
    String head =
        String.format(
            Locale.ROOT,
            "%-62s %9s %9s %9s %9s %9s %9s %9s  %-24s %6s",
            "medium",
            "paper ms",
            "write ms",
            "p99 ms",
            "MB/s",
            "read ms",
            "p99 ms",
            "MB/s",
            "limit (MB/s)",
            "of it");
    out.println(head);
    out.println("-".repeat(head.length()));
    for (SpongeMicroSuite.Row r : rows) {
      ChunkLatencies w = r.result().writes();
      ChunkLatencies rd = r.result().reads();
      String limit = r.limit() == null ? "n/a" : r.limit().label() + " " + fmt(r.limit().mbPerS());
      String fraction =
          r.fractionOfLimit() == null
              ? ""
              : String.format(Locale.ROOT, "%.2f", r.fractionOfLimit());
      out.printf(
          Locale.ROOT,
          "%-62s %9s %9s %9s %9s %9s %9s %9s  %-24s %6s%n",
          r.medium().label,
          Double.isNaN(r.medium().paperMillis) ? "-" : fmt(r.medium().paperMillis),
          fmt(w.medianMillis()),
          fmt(w.percentileMillis(0.99)),
          fmt(r.writeMbPerS()),
          fmt(rd.medianMillis()),
          fmt(rd.percentileMillis(0.99)),
          fmt(r.readMbPerS()),
          limit,
          fraction);
      if (!Double.isNaN(r.backgroundMbPerS())) {
        out.printf(
            Locale.ROOT,
            "%-62s background streams moved %s MB/s meanwhile%n",
            "",
            fmt(r.backgroundMbPerS()));
      }
    }
    out.println(
        "ms = median (and p99) per chunk; MB/s = bytes / wall time of the phase; 'of it' = write MB/s as a"
            + " fraction of the latest physical-limits median");
    if (rows.stream().anyMatch(r -> r.medium() == Medium.REMOTE_SPONGEFILE)) {
      out.printf(
          Locale.ROOT,
          "remote sponge server: one synchronous request per chunk, so its ms is a chunk's full"
              + " round trip (latency) and its MB/s one chunk at a time;%nremote SpongeFile: the task's view with %d"
              + " chunks in flight per file (pipelined on one connection): its write ms is the time the task waited per"
              + " chunk (not a round trip), its MB/s the throughput a spilling task gets, read ms/MB/s with prefetch%n",
          s.inFlight());
    }
    goals(out);
  }

  private void goals(PrintStream out) {
    SpongeMicroSuite.Row shm = best(Medium.LOCAL_SHM);
    SpongeMicroSuite.Row remote = best(Medium.REMOTE_SERVER);
    SpongeMicroSuite.Row remoteFile = best(Medium.REMOTE_SPONGEFILE);
    SpongeMicroSuite.Row disk = best(Medium.DISK_BACKGROUND_IO);
    if (shm != null && shm.fractionOfLimit() != null) {
      out.printf(
          Locale.ROOT,
          "goal: local sponge >= 1/2 memcpy: %.3f -> %s%n",
          shm.fractionOfLimit(),
          shm.fractionOfLimit() >= 0.5 ? "met" : "NOT met");
    }
    if (remote != null && remote.fractionOfLimit() != null) {
      out.printf(
          Locale.ROOT,
          "goal: remote sponge >= 1/2 loopback TCP (one chunk at a time): %.3f -> %s%n",
          remote.fractionOfLimit(),
          remote.fractionOfLimit() >= 0.5 ? "met" : "NOT met");
    }
    if (remoteFile != null && remoteFile.fractionOfLimit() != null) {
      out.printf(
          Locale.ROOT,
          "goal: remote sponge >= 1/2 loopback TCP (SpongeFile, pipelined): %.3f -> %s%n",
          remoteFile.fractionOfLimit(),
          remoteFile.fractionOfLimit() >= 0.5 ? "met" : "NOT met");
    }
    if (shm != null && disk != null) {
      double ratio = disk.result().writes().medianMillis() / shm.result().writes().medianMillis();
      out.printf(
          Locale.ROOT,
          "goal: disk under background IO orders of magnitude slower than the local sponge: %.0fx"
              + " (%.2f orders) -> %s%n",
          ratio,
          Math.log10(ratio),
          ratio >= 100 ? "met" : "NOT met");
    }
  }

  /** The row of the medium's best (fastest-writing) repetition. */
  private SpongeMicroSuite.Row best(Medium m) {
    SpongeMicroSuite.Row best = null;
    for (SpongeMicroSuite.Row r : rows) {
      if (r.medium() == m && (best == null || r.writeMbPerS() > best.writeMbPerS())) {
        best = r;
      }
    }
    return best;
  }
}
