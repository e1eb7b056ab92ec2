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
import org.apache.hadoop.mapreduce.FileSystemCounter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskCounter;

/** One timed run of {@link MedianJob}: wall clock, the answer, and the reduce side's spill counters. */
public record MedianRun(double seconds, long median, Map<String, Double> metrics) {

  /**
   * Runs the job and waits for it; {@code pluginCounterGroup} (nullable) names a counter group to copy into the
   * metrics as {@code plugin.<counter>}.
   */
  public static MedianRun run(Configuration conf, Path input, Path output, long count, String pluginCounterGroup)
      throws Exception {
    FileSystem fs = output.getFileSystem(conf);
    fs.delete(output, true);
    Job job = MedianJob.create(conf, input, output, count);
    long start = System.nanoTime();
    if (!job.waitForCompletion(false)) {
      throw new IOException("median job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Double> metrics = new LinkedHashMap<>();
    metrics.put("seconds", seconds);
    metrics.put("spilled_records", (double) job.getCounters().findCounter(TaskCounter.SPILLED_RECORDS).getValue());
    metrics.put("reduce_shuffle_bytes",
        (double) job.getCounters().findCounter(TaskCounter.REDUCE_SHUFFLE_BYTES).getValue());
    metrics.put("local_fs_bytes_written",
        (double) job.getCounters().findCounter("file", FileSystemCounter.BYTES_WRITTEN).getValue());
    metrics.put("local_fs_bytes_read",
        (double) job.getCounters().findCounter("file", FileSystemCounter.BYTES_READ).getValue());
    metrics.put("gc_ms", (double) job.getCounters().findCounter(TaskCounter.GC_TIME_MILLIS).getValue());
    // A plugin's own counter group (e.g. SpongeFiles' bytes per tier and merge rounds), when it ran.
    if (pluginCounterGroup != null) {
      for (Counter counter : job.getCounters().getGroup(pluginCounterGroup)) {
        metrics.put("plugin." + counter.getName(), (double) counter.getValue());
      }
    }
    return new MedianRun(seconds, readMedian(fs, new Path(output, "part-r-00000")), metrics);
  }

  private static long readMedian(FileSystem fs, Path part) throws IOException {
    try (BufferedReader r = new BufferedReader(new InputStreamReader(fs.open(part), StandardCharsets.UTF_8))) {
      String line = r.readLine();
      if (line == null || !line.startsWith("median\t")) {
        throw new IOException("unexpected median output in " + part + ": " + line);
      }
      return Long.parseLong(line.substring("median\t".length()).trim());
    }
  }
}
