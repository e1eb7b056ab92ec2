package dev.levee.themis;

import dev.levee.themis.io.WriteStats;
import org.apache.hadoop.mapred.Reporter;

/**
 * The counter group Themis tasks publish, next to Hadoop's own counters (which keep their stock
 * meaning). Map-side names start with {@code map.}, reduce-side with {@code reduce.}; every value
 * is summed over the job's tasks, so per-task peaks are read from task reports.
 */
public final class ThemisCounters {
  private ThemisCounters() {}

  public static final String GROUP = "Levee Themis";

  /** Maps that wrote their partitions unsorted (the reduce side was Themis's). */
  public static final String MAP_UNSORTED_OUTPUTS = "map.outputs.unsorted";

  /**
   * Maps that sorted each partition in memory before the one write (a combiner, or a stock reduce
   * side).
   */
  public static final String MAP_SORTED_OUTPUTS = "map.outputs.sorted";

  /** Bytes of file.out, the one write of the intermediate data. */
  public static final String MAP_OUTPUT_FILE_BYTES = "map.output.file.bytes";

  /** Bytes of file.out.index. */
  public static final String MAP_INDEX_BYTES = "map.index.bytes";

  /** Bytes a map wrote into overflow runs (then read back once into file.out). */
  public static final String MAP_OVERFLOW_BYTES = "map.overflow.bytes";

  public static final String MAP_OVERFLOW_RUNS = "map.overflow.runs";
  public static final String MAP_OVERFLOW_RECORDS = "map.overflow.records";

  /** Largest number of bytes a map held in its buffer. */
  public static final String MAP_PEAK_BYTES = "map.peak.buffer.bytes";

  public static final String MAP_SORT_MS = "map.sort.ms";
  public static final String MAP_WRITE_MS = "map.write.ms";

  /** Write calls that reached the local file system, and their bytes (all intermediate files). */
  public static final String MAP_WRITES = "map.writes";

  public static final String MAP_WRITE_BYTES = "map.write.bytes";

  /** Prefix of the write-size histogram counters (see {@link WriteStats#BUCKET_NAMES}). */
  public static final String MAP_WRITE_SIZE_PREFIX = "map.write.size.";

  /**
   * Local bytes a task had written before Themis started in it: the task's own copy of job.xml,
   * which YARN tasks write and which is not intermediate data. {@link dev.levee.themis.IoAudit}
   * subtracts it.
   */
  public static final String TASK_LOCAL_BYTES_BEFORE = "task.local.bytes.written.before";

  /** The local file system's bytes written so far in this JVM (what FILE_BYTES_WRITTEN sums). */
  public static long localBytesWritten() {
    long bytes = 0;
    for (org.apache.hadoop.fs.FileSystem.Statistics s :
        org.apache.hadoop.fs.FileSystem.getAllStatistics()) {
      if ("file".equals(s.getScheme())) {
        bytes += s.getBytesWritten();
      }
    }
    return bytes;
  }

  /** Bytes of fetched map outputs the reducer held in memory. */
  public static final String REDUCE_FETCHED_BYTES = "reduce.fetched.bytes";

  public static final String REDUCE_FETCHED_SEGMENTS = "reduce.fetched.segments";

  /** Largest memory (records plus pointers) a reducer held at once. */
  public static final String REDUCE_PEAK_BYTES = "reduce.peak.bytes";

  public static final String REDUCE_RECORDS_SORTED = "reduce.records.sorted";
  public static final String REDUCE_SORT_MS = "reduce.sort.ms";

  /** Bytes a reducer wrote into sorted runs on local disk because its partition did not fit. */
  public static final String REDUCE_OVERFLOW_BYTES = "reduce.overflow.bytes";

  public static final String REDUCE_OVERFLOW_RUNS = "reduce.overflow.runs";
  public static final String REDUCE_OVERFLOW_RECORDS = "reduce.overflow.records";

  public static void increment(Reporter reporter, String name, long amount) {
    org.apache.hadoop.mapred.Counters.Counter counter = reporter.getCounter(GROUP, name);
    if (counter != null) {
      counter.increment(amount);
    }
  }

  /** Publishes a task's write statistics. */
  public static void publishWrites(Reporter reporter, WriteStats writes) {
    increment(reporter, MAP_WRITES, writes.writes());
    increment(reporter, MAP_WRITE_BYTES, writes.bytes());
    for (int i = 0; i < WriteStats.BUCKET_NAMES.length; i++) {
      increment(reporter, MAP_WRITE_SIZE_PREFIX + WriteStats.BUCKET_NAMES[i], writes.bucket(i));
    }
  }
}
