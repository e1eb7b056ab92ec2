package dev.levee.bench.hadoop.median;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The SpongeFiles paper's Median job: the exact median of N numbers through a single reducer. Every
 * number becomes a map-output key, so the whole input crosses the shuffle into one reduce task and
 * its merge; that one task's spill behaviour is what the job measures. The reducer streams through
 * the sorted keys and keeps nothing but a counter.
 */
public final class MedianJob {
  /** How many numbers the input holds; the reducer needs it to know where the middle is. */
  public static final String COUNT_KEY = "levee.bench.median.count";

  private MedianJob() {}

  public static Job create(Configuration conf, Path input, Path output, long count)
      throws IOException {
    if (count <= 0) {
      throw new IllegalArgumentException(COUNT_KEY + " must be > 0, got " + count);
    }
    Configuration jobConf = new Configuration(conf);
    jobConf.setLong(COUNT_KEY, count);
    Job job = Job.getInstance(jobConf, "median of " + count + " numbers");
    job.setJarByClass(MedianJob.class);
    job.setMapperClass(ParseMapper.class);
    job.setReducerClass(MedianReducer.class);
    job.setNumReduceTasks(1);
    job.setMapOutputKeyClass(LongWritable.class);
    job.setMapOutputValueClass(NullWritable.class);
    job.setOutputKeyClass(Text.class);
    job.setOutputValueClass(LongWritable.class);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, output);
    return job;
  }

  /**
   * One number per line: the digits of the first tab-separated field. A leading non-digit prefix is
   * skipped, so the bench generators' keys ({@code k0000012345}, zero-padded so text order is
   * number order) read as numbers.
   */
  public static final class ParseMapper
      extends Mapper<LongWritable, Text, LongWritable, NullWritable> {
    private final LongWritable number = new LongWritable();

    @Override
    protected void map(LongWritable offset, Text line, Context context)
        throws IOException, InterruptedException {
      byte[] bytes = line.getBytes();
      int end = line.find("\t");
      end = end < 0 ? line.getLength() : end;
      int start = 0;
      while (start < end && (bytes[start] < '0' || bytes[start] > '9') && bytes[start] != '-') {
        start++;
      }
      if (start == end) {
        throw new IOException(
            "no number in the first field of line at offset " + offset.get() + ": '" + line + "'");
      }
      number.set(Long.parseLong(new String(bytes, start, end - start, StandardCharsets.US_ASCII)));
      context.write(number, NullWritable.get());
    }
  }

  /**
   * Emits the lower median (the element at 0-based position (N-1)/2 in sorted order). Fails the
   * task if the input count disagrees with {@link #COUNT_KEY}, so a lost or duplicated record can
   * never pass as a right answer.
   */
  public static final class MedianReducer
      extends Reducer<LongWritable, NullWritable, Text, LongWritable> {
    private long expected;
    private long target;
    private long seen;
    private Long median;

    @Override
    protected void setup(Context context) {
      expected = context.getConfiguration().getLong(COUNT_KEY, -1);
      if (expected <= 0) {
        throw new IllegalStateException(
            COUNT_KEY + " is not set (must be the number of input records)");
      }
      target = (expected - 1) / 2;
    }

    @Override
    protected void reduce(LongWritable key, Iterable<NullWritable> values, Context context) {
      for (NullWritable ignored : values) {
        if (seen == target) {
          median = key.get();
        }
        seen++;
      }
    }

    @Override
    protected void cleanup(Context context) throws IOException, InterruptedException {
      if (seen != expected) {
        throw new IOException(
            "median reducer saw " + seen + " records but " + COUNT_KEY + "=" + expected);
      }
      context.write(new Text("median"), new LongWritable(median));
    }
  }
}
