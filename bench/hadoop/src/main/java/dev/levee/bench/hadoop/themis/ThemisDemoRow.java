package dev.levee.bench.hadoop.themis;

import dev.levee.bench.SuiteContext;
import dev.levee.bench.demo.DemoTable;
import dev.levee.bench.results.Measurement;
import dev.levee.themis.IoAudit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * Themis's row of {@code ./levee demo}: the paper's Sort on the demo's cluster, stock (defaults)
 * and Themis on the same generated input; both outputs checked sorted and equal part by part, and
 * the I/O audit of both jobs shown in the row (Themis passes it, stock does not).
 */
public final class ThemisDemoRow {
  private static final String MODULE = "themis-shuffle";

  private ThemisDemoRow() {}

  /**
   * @param conf the demo cluster's client configuration
   */
  public static void run(Configuration conf, SuiteContext context, String runId, long records)
      throws Exception {
    FileSystem fs = FileSystem.get(conf);
    Path base = new Path("/demo/themis");
    Path input = new Path(base, "in");
    int maps = 2;
    int reducers = 2;
    context.err().printf("demo-hadoop: themis: generating %,d TeraSort records%n", records);
    long inputBytes;
    try (var progress = context.progress("generate", records, "records")) {
      inputBytes = SortWorkload.generate(conf, input, records, maps, 7, progress).bytes();
    }
    Map<String, Double> stock = null;
    IoAudit.Report stockAudit = null;
    OutputDigest stockDigest = null;
    Map<String, Double> themis = null;
    IoAudit.Report themisAudit = null;
    for (ShuffleVariant v :
        new ShuffleVariant[] {ShuffleVariant.STOCK_DEFAULT, ShuffleVariant.THEMIS}) {
      Path out = new Path(base, v.label);
      Job job = SortWorkload.job(v.apply(conf, 0), input, out, reducers);
      if (!job.waitForCompletion(false)) {
        throw new IllegalStateException(
            "demo-hadoop: the " + v.label + " sort failed: " + job.getStatus().getFailureInfo());
      }
      OutputDigest digest = OutputDigest.of(fs, out);
      if (!digest.sorted() || digest.records() != records) {
        throw new IllegalStateException(
            "demo-hadoop: the "
                + v.label
                + " sort's output is wrong: "
                + digest.records()
                + " of "
                + records
                + " records"
                + (digest.sorted() ? "" : ", unsorted at " + digest.firstUnsorted()));
      }
      IoAudit.Report audit = IoAudit.of(job);
      Map<String, Double> metrics = new LinkedHashMap<>();
      metrics.put(DemoTable.SECONDS, (job.getFinishTime() - job.getStartTime()) / 1000.0);
      metrics.put("reads_per_record", audit.readsPerRecord());
      metrics.put("writes_per_record", audit.writesPerRecord());
      context
          .err()
          .printf(
              "demo-hadoop: themis: %s sort %.1f s; I/O audit: %s%n",
              v.label, metrics.get(DemoTable.SECONDS), audit.summary());
      if (v == ShuffleVariant.THEMIS) {
        if (!digest.sameAs(stockDigest)) {
          throw new IllegalStateException(
              "demo-hadoop: Themis's sorted output differs from stock's: "
                  + digest.parts()
                  + " vs "
                  + stockDigest.parts());
        }
        if (!audit.twoIo()) {
          throw new IllegalStateException(
              "demo-hadoop: the Themis sort failed its I/O audit: " + audit.summary());
        }
        themis = metrics;
        themisAudit = audit;
      } else {
        stock = metrics;
        stockAudit = audit;
        stockDigest = digest;
      }
      fs.delete(out, true);
    }
    fs.delete(base, true);
    Map<String, Object> params = new LinkedHashMap<>();
    params.put(DemoTable.RUN_ID, runId);
    params.put(DemoTable.MODULE, MODULE);
    params.put(
        DemoTable.WORKLOAD,
        String.format(
            Locale.ROOT,
            "Sort of %.0f MB (100-byte records), %d maps, %d reducers; I/O audit per record:"
                + " stock %.2f reads %.2f writes (%s), Themis %.2f reads %.2f writes (%s)",
            inputBytes / 1e6,
            maps,
            reducers,
            stockAudit.readsPerRecord(),
            stockAudit.writesPerRecord(),
            stockAudit.twoIo() ? "2-IO" : "not 2-IO",
            themisAudit.readsPerRecord(),
            themisAudit.writesPerRecord(),
            themisAudit.twoIo() ? "2-IO" : "not 2-IO"));
    context.record(Measurement.STOCK, params, stock, 0);
    Map<String, Object> plugin = new LinkedHashMap<>(params);
    plugin.put(DemoTable.SAME_OUTPUT, "yes");
    context.record(DemoTable.PLUGIN, plugin, themis, 0);
  }
}
