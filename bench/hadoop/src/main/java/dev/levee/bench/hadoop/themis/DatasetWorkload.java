package dev.levee.bench.hadoop.themis;

import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.progress.ProgressReporter;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * A workload over one seeded bench-core dataset: what every workload shares (its name, input,
 * default size and sort-buffer need), so a workload class holds only its job and its reduce logic.
 */
abstract class DatasetWorkload implements ThemisWorkload {
  private final String name;
  private final String dataset;
  private final Map<String, String> options;
  private final long seed;
  private final long defaultRecords;
  private final double sortBufferBytesPerInputByte;

  DatasetWorkload(
      String name,
      String dataset,
      Map<String, String> options,
      long seed,
      long defaultRecords,
      double sortBufferBytesPerInputByte) {
    this.name = name;
    this.dataset = dataset;
    this.options = options;
    this.seed = seed;
    this.defaultRecords = defaultRecords;
    this.sortBufferBytesPerInputByte = sortBufferBytesPerInputByte;
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final long defaultRecords() {
    return defaultRecords;
  }

  @Override
  public final double sortBufferBytesPerInputByte() {
    return sortBufferBytesPerInputByte;
  }

  @Override
  public final DatasetWriter.Result writeInput(
      Configuration conf, Path dir, long records, int files, ProgressReporter progress)
      throws IOException, InterruptedException {
    return ThemisWorkload.write(
        conf, dataset, datasetOptions(records), seed, dir, records, files, progress);
  }

  /**
   * The dataset's options for an input of {@code records} records (by default the same at any
   * size).
   */
  Map<String, String> datasetOptions(long records) {
    return options;
  }

  /**
   * A job named {@code name} reading {@code in} with {@code input} and writing text lines to {@code
   * out} with {@code reducers} reduce tasks; the caller adds the mapper, reducer and types.
   */
  static Job textOutputJob(
      Configuration conf,
      String name,
      Class<?> jarClass,
      Class<? extends InputFormat<?, ?>> input,
      Path in,
      Path out,
      int reducers)
      throws IOException {
    Job job = Job.getInstance(conf, name);
    job.setJarByClass(jarClass);
    job.setInputFormatClass(input);
    job.setOutputFormatClass(TextOutputFormat.class);
    job.setNumReduceTasks(reducers);
    FileInputFormat.addInputPath(job, in);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }
}
