package dev.levee.bench.hadoop.median.load;

import dev.levee.bench.SuiteContext;
import dev.levee.bench.hadoop.median.NumbersInput;
import dev.levee.bench.progress.ProgressReporter;
import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The other tenant: a small fixed sort that goes through local disk on both sides (maps spill and
 * merge with a small sort buffer; the reducer shuffles to disk), the kind of job that suffers when
 * a spilling job hammers the same disk. Its wall clock alone and next to the Median job gives the
 * slowdown a co-running job sees.
 */
public final class CoRunnerJob {
  /**
   * Map-side sort buffer: a few MiB, so each map spills several times and merges its spills on
   * disk.
   */
  static final int SORT_MB = 4;

  /**
   * Reduce-side shuffle memory fraction: small, so the map outputs are fetched to disk and merged
   * there.
   */
  static final float SHUFFLE_BUFFER = 0.05f;

  private static final long SEED = 7;
  private static final int VALUE_BYTES = 88;

  private CoRunnerJob() {}

  /**
   * Writes the co-runner's fixed input: {@code records} lines of about 100 bytes in {@code files}
   * files.
   */
  public static void generate(
      Configuration conf, Path dir, long records, int files, SuiteContext context)
      throws Exception {
    try (ProgressReporter progress =
        context.progress("generate co-runner input", records, "records")) {
      NumbersInput.writeUniform(
          conf,
          dir,
          records,
          files,
          SEED,
          Map.of("keys", "1000000000", "value-size", "fixed:" + VALUE_BYTES),
          progress);
    }
  }

  /** Runs the sort once and returns its wall clock in seconds. */
  public static double run(Configuration conf, Path input, Path output) throws Exception {
    output.getFileSystem(conf).delete(output, true);
    Job job = create(conf, input, output);
    long start = System.nanoTime();
    if (!job.waitForCompletion(false)) {
      throw new IOException(
          "co-runner job " + job.getJobID() + " failed: " + job.getStatus().getFailureInfo());
    }
    return (System.nanoTime() - start) / 1e9;
  }

  static Job create(Configuration conf, Path input, Path output) throws IOException {
    Configuration c = new Configuration(conf);
    c.setInt(MRJobConfig.IO_SORT_MB, SORT_MB);
    c.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, SHUFFLE_BUFFER);
    Job job = Job.getInstance(c, "co-runner sort of " + input.getName());
    job.setJarByClass(CoRunnerJob.class);
    job.setMapperClass(LineKeyMapper.class);
    job.setReducerClass(Reducer.class);
    job.setNumReduceTasks(1);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(NullWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /** The whole line is the sort key. */
  public static final class LineKeyMapper extends Mapper<LongWritable, Text, Text, NullWritable> {
    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      context.write(line, NullWritable.get());
    }
  }
}
