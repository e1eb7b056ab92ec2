package dev.levee.sponge.hadoop;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.FileInputFormat;
import org.apache.hadoop.mapred.FileOutputFormat;
import org.apache.hadoop.mapred.JobClient;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.MapReduceBase;
import org.apache.hadoop.mapred.Mapper;
import org.apache.hadoop.mapred.OutputCollector;
import org.apache.hadoop.mapred.Reducer;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapred.RunningJob;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;

/**
 * A skewed aggregation run in-process on Hadoop's LocalJobRunner: many map outputs of very
 * different sizes into one reducer whose shuffle memory is a few MiB, so it spills and (stock)
 * merges in several rounds. Written with the old API because Hadoop runs a reduce-side combiner
 * only for old-API combiners.
 */
final class ShuffleJobs {
  static final int MAPS = 24;
  static final int SORT_FACTOR = 5;

  private ShuffleJobs() {}

  /**
   * One input file per map; map {@code i} emits roughly {@code 1500 * (i + 1)} records over 4000
   * keys.
   */
  static void writeInput(Path dir) throws IOException {
    Files.createDirectories(dir);
    Random random = new Random(42);
    for (int i = 0; i < MAPS; i++) {
      try (Writer w =
          Files.newBufferedWriter(
              dir.resolve(String.format("part-%02d.txt", i)), StandardCharsets.UTF_8)) {
        int records = 1500 * (i + 1);
        for (int r = 0; r < records; r++) {
          w.write("key-" + random.nextInt(4000) + "\t" + random.nextInt(1_000_000) + "\n");
        }
      }
    }
  }

  /**
   * A job over {@code input} into {@code output}, with a tiny reduce-side shuffle budget and sort
   * factor.
   */
  static JobConf job(Path work, Path input, Path output, boolean combiner) {
    JobConf job = new JobConf();
    job.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    job.set("fs.defaultFS", "file:///");
    job.set("hadoop.tmp.dir", work.resolve("hadoop-tmp").toString());
    job.set(MRConfig.LOCAL_DIR, work.resolve("local").toString());
    job.setJobName("sponge-shuffle-" + output.getFileName());
    job.setNumReduceTasks(1);
    job.setInt(MRJobConfig.IO_SORT_FACTOR, SORT_FACTOR);
    job.setLong(MRJobConfig.REDUCE_MEMORY_TOTAL_BYTES, 3L << 20);
    job.setFloat(MRJobConfig.SHUFFLE_INPUT_BUFFER_PERCENT, 0.7f);
    job.setFloat(MRJobConfig.SHUFFLE_MERGE_PERCENT, 0.66f);
    job.setFloat(MRJobConfig.REDUCE_INPUT_BUFFER_PERCENT, 0f);
    job.setMapperClass(SplitMapper.class);
    job.setMapOutputKeyClass(Text.class);
    job.setMapOutputValueClass(LongWritable.class);
    if (combiner) {
      job.setCombinerClass(SumReducer.class);
      job.setReducerClass(SumReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(LongWritable.class);
    } else {
      job.setReducerClass(SortedValuesReducer.class);
      job.setOutputKeyClass(Text.class);
      job.setOutputValueClass(Text.class);
    }
    FileInputFormat.setInputPaths(job, new org.apache.hadoop.fs.Path(input.toUri()));
    FileOutputFormat.setOutputPath(job, new org.apache.hadoop.fs.Path(output.toUri()));
    return job;
  }

  /** Compressed map output (DefaultCodec) for each job, as a user turns it on. */
  static void compressMapOutput(JobConf... jobs) {
    for (JobConf j : jobs) {
      j.setBoolean(MRJobConfig.MAP_OUTPUT_COMPRESS, true);
      j.setClass(
          MRJobConfig.MAP_OUTPUT_COMPRESS_CODEC,
          org.apache.hadoop.io.compress.DefaultCodec.class,
          org.apache.hadoop.io.compress.CompressionCodec.class);
    }
  }

  static RunningJob run(JobConf job) throws IOException {
    FileUtil.fullyDelete(Path.of(FileOutputFormat.getOutputPath(job).toUri()).toFile());
    // The client polls a finished job every 5 s by default: most of a small local job's time.
    job.setInt(org.apache.hadoop.mapreduce.Job.COMPLETION_POLL_INTERVAL_KEY, 50);
    RunningJob running = new JobClient(job).submitJob(job);
    running.waitForCompletion();
    if (!running.isSuccessful()) {
      StringBuilder why =
          new StringBuilder("job " + job.getJobName() + " failed: " + running.getFailureInfo());
      for (org.apache.hadoop.mapred.TaskCompletionEvent e : running.getTaskCompletionEvents(0)) {
        for (String d : running.getTaskDiagnostics(e.getTaskAttemptId())) {
          why.append('\n').append(e.getTaskAttemptId()).append(": ").append(d);
        }
      }
      throw new IllegalStateException(why.toString());
    }
    return running;
  }

  static byte[] output(Path dir) throws IOException {
    return Files.readAllBytes(dir.resolve("part-00000"));
  }

  /** {@code key \t value} lines to (key, value). */
  public static final class SplitMapper extends MapReduceBase
      implements Mapper<LongWritable, Text, Text, LongWritable> {
    private final Text key = new Text();
    private final LongWritable value = new LongWritable();

    @Override
    public void map(
        LongWritable offset, Text line, OutputCollector<Text, LongWritable> out, Reporter reporter)
        throws IOException {
      String s = line.toString();
      int tab = s.indexOf('\t');
      key.set(s.substring(0, tab));
      value.set(Long.parseLong(s.substring(tab + 1)));
      out.collect(key, value);
    }
  }

  /** Sums values; associative, so it serves as combiner too. */
  public static final class SumReducer extends MapReduceBase
      implements Reducer<Text, LongWritable, Text, LongWritable> {
    private final LongWritable sum = new LongWritable();

    @Override
    public void reduce(
        Text key,
        Iterator<LongWritable> values,
        OutputCollector<Text, LongWritable> out,
        Reporter reporter)
        throws IOException {
      long s = 0;
      while (values.hasNext()) {
        s += values.next().get();
      }
      sum.set(s);
      out.collect(key, sum);
    }
  }

  /**
   * Every value of a key, sorted: the output shows each shuffled record exactly once, and does not
   * depend on the order in which values of equal keys arrive (which Hadoop leaves unspecified).
   */
  public static final class SortedValuesReducer extends MapReduceBase
      implements Reducer<Text, LongWritable, Text, Text> {
    @Override
    public void reduce(
        Text key, Iterator<LongWritable> values, OutputCollector<Text, Text> out, Reporter reporter)
        throws IOException {
      List<Long> all = new ArrayList<>();
      while (values.hasNext()) {
        all.add(values.next().get());
      }
      Collections.sort(all);
      StringBuilder sb = new StringBuilder();
      for (Long v : all) {
        sb.append(v).append(',');
      }
      out.collect(key, new Text(sb.toString()));
    }
  }
}
