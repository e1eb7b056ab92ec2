package dev.levee.themis;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * Proves from a finished job's counters how many times each intermediate byte was written to and
 * read from local disk, the accounting of the ThemisMR paper (2-IO: every record read twice and
 * written twice; here the input read and the output write are one each by construction, so the
 * intermediate data must be written once and read once).
 *
 * <p>The counters it uses keep their stock meaning, which is what makes the audit work on stock
 * jobs too, where it visibly fails:
 *
 * <ul>
 *   <li>D = MAP_OUTPUT_MATERIALIZED_BYTES, the intermediate data as first written (file.out);
 *   <li>writes = local FILE_BYTES_WRITTEN minus the map output indexes (24 bytes per partition plus
 *       8 per map) and minus each task's own job.xml (a YARN task writes its configuration to its
 *       local directory: Themis measures it when it starts in a task, for a stock job it is
 *       estimated as the job configuration's size per task);
 *   <li>reads = local FILE_BYTES_READ (merges, spills read back) plus REDUCE_SHUFFLE_BYTES (the
 *       ShuffleHandler reads each served segment once, in the NodeManager, outside any task's
 *       counters).
 * </ul>
 *
 * Intermediate passes are writes / D and reads / D; the job is 2-IO when both are 1 within a small
 * tolerance. Themis's overflow runs are counted separately: {@link Report#accountedFor()} says
 * whether every extra byte is one that Themis reported as overflow. The counters are logical bytes:
 * the page cache may have served some reads, so the bench measures the disk itself too. Job
 * counters sum the successful task attempts only.
 */
public final class IoAudit {
  private IoAudit() {}

  /**
   * Local bytes that are not intermediate data and that no counter names, tolerated besides 0.2% of
   * D: distributed-cache files a task reads (TeraSort's partition list), small job-side files.
   */
  public static final long DEFAULT_TOLERANCE_BYTES = 64L << 10;

  public record Report(
      long intermediateBytes,
      long indexBytes,
      long taskFileBytes,
      long localBytesWritten,
      long localBytesRead,
      long shuffleBytes,
      long overflowBytes,
      long mapOutputRecords,
      long spilledRecords,
      long inputBytes,
      long outputBytes,
      double tolerance) {

    /** Local writes of intermediate data, in passes over it. */
    public double intermediateWrites() {
      return ratio(localBytesWritten - indexBytes - taskFileBytes, intermediateBytes);
    }

    /** Reads of intermediate data (local files and the shuffle), in passes over it. */
    public double intermediateReads() {
      return ratio(localBytesRead + shuffleBytes, intermediateBytes);
    }

    /** The paper's measure: the input read plus the intermediate reads. */
    public double readsPerRecord() {
      return 1 + intermediateReads();
    }

    /** The intermediate writes plus the output write. */
    public double writesPerRecord() {
      return intermediateWrites() + 1;
    }

    /** Exactly one write and one read of every intermediate byte, with nothing overflowing. */
    public boolean twoIo() {
      return overflowBytes == 0 && accountedFor();
    }

    /**
     * Every local write and read beyond the first is one Themis counted as overflow (each overflow
     * byte is written once and read once more).
     */
    public boolean accountedFor() {
      if (intermediateBytes <= 0) {
        return localBytesWritten - indexBytes - taskFileBytes <= tolerance
            && localBytesRead <= tolerance;
      }
      double extra = ratio(overflowBytes, intermediateBytes);
      double eps = ratio((long) tolerance, intermediateBytes);
      return Math.abs(intermediateWrites() - 1 - extra) <= eps
          && Math.abs(intermediateReads() - 1 - extra) <= eps;
    }

    public List<String> findings() {
      List<String> f = new ArrayList<>();
      if (intermediateBytes <= 0) {
        f.add("no intermediate data (map-only job or empty input)");
        return f;
      }
      double extra = ratio(overflowBytes, intermediateBytes);
      double w = intermediateWrites() - 1 - extra;
      double r = intermediateReads() - 1 - extra;
      double eps = ratio((long) tolerance, intermediateBytes);
      if (w > eps) {
        f.add(
            String.format(
                Locale.ROOT,
                "%.2f extra local writes of the intermediate data (spills, merges)",
                w));
      }
      if (r > eps) {
        f.add(
            String.format(
                Locale.ROOT,
                "%.2f extra reads of the intermediate data (merges, spills read back)",
                r));
      }
      if (w < -eps || r < -eps) {
        f.add("fewer local writes or reads than intermediate bytes: the counters do not add up");
      }
      if (overflowBytes > 0) {
        f.add(
            String.format(
                Locale.ROOT,
                "%d bytes overflowed (%.3f of the intermediate data), written and read once more",
                overflowBytes,
                extra));
      }
      return f;
    }

    public String summary() {
      return String.format(
          Locale.ROOT,
          "%.2f reads and %.2f writes per record (intermediate data: %d bytes written %.3f times,"
              + " read %.3f times)%s",
          readsPerRecord(),
          writesPerRecord(),
          intermediateBytes,
          intermediateWrites(),
          intermediateReads(),
          findings().isEmpty() ? "" : "; " + String.join("; ", findings()));
    }

    private static double ratio(long a, long b) {
      return b <= 0 ? 0 : (double) a / b;
    }
  }

  /**
   * Audits a finished job from its counters; {@code job}'s configuration gives maps and reducers.
   */
  public static Report of(Job job) throws IOException {
    Counters counters = job.getCounters();
    if (counters == null) {
      throw new IOException("job " + job.getJobID() + " has no counters (is it finished?)");
    }
    int maps = job.getConfiguration().getInt(MRJobConfig.NUM_MAPS, 0);
    int reducers = job.getNumReduceTasks();
    ByteArrayOutputStream xml = new ByteArrayOutputStream();
    job.getConfiguration().writeXml(xml);
    return of(
        counters, maps, reducers, (long) (maps + reducers) * xml.size(), DEFAULT_TOLERANCE_BYTES);
  }

  /**
   * @param maps successful map tasks (for the stock index size; Themis counts its own)
   * @param taskFileEstimate the tasks' own local files (job.xml) when Themis did not measure them
   * @param tolerance local bytes no counter explains that are tolerated besides 0.2% of D
   */
  public static Report of(
      Counters c, int maps, int reducers, long taskFileEstimate, long tolerance) {
    long d = value(c, TaskCounter.MAP_OUTPUT_MATERIALIZED_BYTES);
    long themisIndex = themis(c, ThemisCounters.MAP_INDEX_BYTES);
    long index = themisIndex > 0 ? themisIndex : (long) maps * ((long) reducers * 24 + 8);
    long overflow =
        themis(c, ThemisCounters.MAP_OVERFLOW_BYTES)
            + themis(c, ThemisCounters.REDUCE_OVERFLOW_BYTES);
    long measured = themis(c, ThemisCounters.TASK_LOCAL_BYTES_BEFORE);
    return new Report(
        d,
        index,
        measured > 0 ? measured : taskFileEstimate,
        c.findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue(),
        c.findCounter("file", FileSystemCounter.BYTES_READ).getValue(),
        value(c, TaskCounter.REDUCE_SHUFFLE_BYTES),
        overflow,
        value(c, TaskCounter.MAP_OUTPUT_RECORDS),
        value(c, TaskCounter.SPILLED_RECORDS),
        c.findCounter("hdfs", FileSystemCounter.BYTES_READ).getValue(),
        c.findCounter("hdfs", FileSystemCounter.BYTES_WRITTEN).getValue(),
        Math.max(tolerance, d * 0.002));
  }

  private static long value(Counters c, TaskCounter counter) {
    return c.findCounter(counter).getValue();
  }

  private static long themis(Counters c, String name) {
    CounterGroup group = c.getGroup(ThemisCounters.GROUP);
    for (Counter counter : group) {
      if (counter.getName().equals(name)) {
        return counter.getValue();
      }
    }
    return 0;
  }
}
