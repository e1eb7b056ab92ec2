package dev.levee.bench.hadoop.themis;

import dev.levee.bench.gen.DatasetWriter;
import dev.levee.bench.progress.ProgressReporter;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * One of the paper's jobs scaled to this machine: its input (a bench-core dataset) and the
 * MapReduce job every variant runs on it. Jobs use the default hash partitioner or their own, never
 * one that depends on the variant, so every variant's output must be equal part by part.
 */
interface ThemisWorkload {
  /** The name {@code --workloads} selects it by and results record. */
  String name();

  /** One line for tables: what the job does and on what data. */
  String description(long records);

  /** Input records at {@code --scale 1}, sized so a stock job takes 20-60 s on 2 cores. */
  long defaultRecords();

  /**
   * Bytes a map's sort buffer takes per input byte (framed map output plus 16 bytes of metadata per
   * record, before any combiner), so stock-tuned can size io.sort.mb to hold a map's output.
   */
  double sortBufferBytesPerInputByte();

  /** Records the output must hold when that follows from the input (sorts), else -1. */
  long expectedOutputRecords(long inputRecords);

  DatasetWriter.Result writeInput(
      Configuration conf, Path dir, long records, int files, ProgressReporter progress)
      throws IOException, InterruptedException;

  Job createJob(Configuration conf, Path in, Path out, int reducers) throws IOException;

  /** Writes a built-in bench-core dataset, seeded, as {@code files} parts under {@code dir}. */
  static DatasetWriter.Result write(
      Configuration conf,
      String dataset,
      Map<String, String> options,
      long seed,
      Path dir,
      long records,
      int files,
      ProgressReporter progress)
      throws IOException, InterruptedException {
    FileSystem fs = dir.getFileSystem(conf);
    return new DatasetWriter(conf)
        .writeBuiltIn(
            dataset,
            seed,
            options,
            new DatasetWriter.Plan(fs.makeQualified(dir).toString(), records, files, 2, true),
            progress);
  }
}
