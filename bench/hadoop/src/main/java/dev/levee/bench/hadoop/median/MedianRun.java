package dev.levee.bench.hadoop.median;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * One timed run of {@link MedianJob}: wall clock, the answer, the job's spill counters, and the
 * single reduce task's own counters and attempt (whose container logs tell how stock merged).
 */
public record MedianRun(
    double seconds,
    long median,
    Map<String, Double> metrics,
    JobID jobId,
    TaskAttemptID reduceAttempt,
    Counters reduceCounters,
    JobPhases phases) {

  /**
   * Called about every {@link #POLL_MS} while the job runs, e.g. to start a co-running job once the
   * maps are done.
   */
  @FunctionalInterface
  public interface Watcher {
    Watcher NONE = job -> {};

    void poll(Job job) throws Exception;
  }

  /**
   * Same as the job client's completion polling in the mini cluster, so the wall clock is not
   * quantized coarser.
   */
  static final long POLL_MS = 100;

  /**
   * Runs the job and waits for it; {@code pluginCounterGroup} (nullable) names a counter group to
   * copy into the metrics as {@code plugin.<counter>}.
   */
  public static MedianRun run(
      Configuration conf, Path input, Path output, long count, String pluginCounterGroup)
      throws Exception {
    return run(conf, input, output, count, pluginCounterGroup, Watcher.NONE, Long.MAX_VALUE);
  }

  /**
   * As above, calling {@code watcher} while the job runs and killing it after {@code
   * timeoutSeconds}.
   */
  public static MedianRun run(
      Configuration conf,
      Path input,
      Path output,
      long count,
      String pluginCounterGroup,
      Watcher watcher,
      long timeoutSeconds)
      throws Exception {
    FileSystem fs = output.getFileSystem(conf);
    fs.delete(output, true);
    Job job = MedianJob.create(conf, input, output, count);
    long start = System.nanoTime();
    job.submit();
    long deadline =
        timeoutSeconds >= Long.MAX_VALUE / 1_000_000_000L
            ? Long.MAX_VALUE
            : start + timeoutSeconds * 1_000_000_000L;
    while (!job.isComplete()) {
      if (System.nanoTime() > deadline) {
        job.killJob();
        throw new IOException(
            "median job "
                + job.getJobID()
                + " still running after "
                + timeoutSeconds
                + " s; killed");
      }
      watcher.poll(job);
      Thread.sleep(POLL_MS);
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (!job.isSuccessful()) {
      throw new IOException(
          "median job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
    }
    Counters counters = job.getCounters();
    Map<String, Double> metrics = new LinkedHashMap<>();
    metrics.put("seconds", seconds);
    metrics.put(
        "spilled_records", (double) counters.findCounter(TaskCounter.SPILLED_RECORDS).getValue());
    metrics.put(
        "reduce_shuffle_bytes",
        (double) counters.findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue());
    metrics.put(
        "local_fs_bytes_written",
        (double) counters.findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue());
    metrics.put(
        "local_fs_bytes_read",
        (double) counters.findCounter("file", FileSystemCounter.BYTES_READ).getValue());
    metrics.put("gc_ms", (double) counters.findCounter(TaskCounter.GC_TIME_MILLIS).getValue());
    // A plugin's own counter group (e.g. SpongeFiles' bytes per tier and merge rounds), when it
    // ran.
    if (pluginCounterGroup != null) {
      for (Counter counter : counters.getGroup(pluginCounterGroup)) {
        metrics.put("plugin." + counter.getName(), (double) counter.getValue());
      }
    }
    TaskReport[] reduces = job.getTaskReports(TaskType.REDUCE);
    TaskReport reduce = theReduceTask(job, reduces);
    return new MedianRun(
        seconds,
        readMedian(fs, new Path(output, "part-r-00000")),
        metrics,
        job.getJobID(),
        reduce.getSuccessfulTaskAttemptId(),
        reduce.getTaskCounters(),
        JobPhases.of(job.getTaskReports(TaskType.MAP), reduces, seconds));
  }

  private static TaskReport theReduceTask(Job job, TaskReport[] reduces) throws IOException {
    if (reduces.length != 1) {
      throw new IOException(
          "median job "
              + job.getJobID()
              + " reports "
              + reduces.length
              + " reduce tasks; it runs exactly one");
    }
    return reduces[0];
  }

  private static long readMedian(FileSystem fs, Path part) throws IOException {
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(fs.open(part), StandardCharsets.UTF_8))) {
      String line = r.readLine();
      if (line == null || !line.startsWith("median\t")) {
        throw new IOException("unexpected median output in " + part + ": " + line);
      }
      return Long.parseLong(line.substring("median\t".length()).trim());
    }
  }
}
