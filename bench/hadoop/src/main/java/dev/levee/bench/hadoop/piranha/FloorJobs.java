package dev.levee.bench.hadoop.piranha;

import dev.levee.piranha.dag.PiranhaDag;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.LongWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.TextInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;

/**
 * The paper's Table 1 on YARN: jobs that do (almost) nothing over a one-line file, so what they
 * take is the framework's own cost: launch, scheduling, task start and commit.
 */
final class FloorJobs {
  private FloorJobs() {}

  /** When a floor job ran, by the client's clock, and as which job. */
  record Run(JobID id, long startMillis, long endMillis) {
    double seconds() {
      return (endMillis - startMillis) / 1000.0;
    }
  }

  static Run emptyMapReduce(Configuration conf, Path in, Path out) throws Exception {
    return run(job(conf, "empty mapreduce", in, out, 1));
  }

  /** One map task per file of {@code in}. */
  static Run emptyMapOnly(Configuration conf, Path in, Path out) throws Exception {
    return run(job(conf, "empty map-only", in, out, 0));
  }

  /** One identity scan stage, a shuffle, and one identity reduce stage. */
  static PiranhaDag emptyPiranha(Path in, Path out) {
    return PiranhaDag.builder("empty-piranha")
        .initial("scan")
        .inputFormat(TextInputFormat.class)
        .inputPaths(in)
        .mapper(Mapper.class)
        .mapOutput(LongWritable.class, Text.class)
        .shuffle("reduce", 1)
        .from("scan")
        .reducer(Reducer.class)
        .output(LongWritable.class, Text.class)
        .outputFormat(TextOutputFormat.class, out)
        .build();
  }

  private static Job job(Configuration conf, String name, Path in, Path out, int reduces)
      throws Exception {
    Job j = Job.getInstance(conf, name);
    j.setJarByClass(FloorJobs.class);
    j.setInputFormatClass(TextInputFormat.class);
    FileInputFormat.setInputPaths(j, in);
    j.setMapperClass(MarkingMapper.class);
    j.setReducerClass(MarkingReducer.class);
    j.setNumReduceTasks(reduces);
    j.setOutputKeyClass(LongWritable.class);
    j.setOutputValueClass(Text.class);
    j.setOutputFormatClass(TextOutputFormat.class);
    FileOutputFormat.setOutputPath(j, out);
    return j;
  }

  private static Run run(Job j) throws Exception {
    long t0 = System.currentTimeMillis();
    if (!j.waitForCompletion(false)) {
      throw new IllegalStateException(j.getJobName() + " failed");
    }
    return new Run(j.getJobID(), t0, System.currentTimeMillis());
  }

  /**
   * The identity map, marking when task code began and ended (two counters; nothing else), so the
   * timeline can tell JVM start from task work.
   */
  public static final class MarkingMapper extends Mapper<Object, Object, Object, Object> {
    @Override
    protected void setup(Context context) {
      mark(context, FloorTimeline.CODE_START);
    }

    @Override
    protected void cleanup(Context context) {
      mark(context, FloorTimeline.CODE_END);
    }
  }

  /** The identity reduce, marking as {@link MarkingMapper} does. */
  public static final class MarkingReducer extends Reducer<Object, Object, Object, Object> {
    @Override
    protected void setup(Context context) {
      mark(context, FloorTimeline.CODE_START);
    }

    @Override
    protected void cleanup(Context context) {
      mark(context, FloorTimeline.CODE_END);
    }
  }

  private static void mark(TaskAttemptContext context, String instant) {
    context.getCounter(FloorTimeline.GROUP, instant).setValue(System.currentTimeMillis());
  }
}
