package dev.levee.piranha.mr;

import dev.levee.piranha.plan.RunPlan;
import dev.levee.piranha.rendezvous.ZkWarmUp;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.TextOutputFormat;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The output format MapReduce sees: the terminal stage's own format, configured with the terminal
 * stage's settings, for checks and commits; but with no record writer of its own, because only
 * terminal tasks write (through the real format) and every other task must leave no file behind
 * (stock map-only tasks open their writer eagerly). The job's configuration itself stays free of
 * any one stage's settings, so a stage's comparator or classes never leak into another's.
 */
public final class PiranhaOutputFormat extends OutputFormat<Object, Object> {

  /** The terminal stage's settings over the job's. */
  public static Configuration terminalConf(Configuration jobConf) {
    RunPlan plan = RunPlan.decode(jobConf.get(JobKeys.PLAN));
    return plan.dag().terminal().last().apply(plan.dag().apply(jobConf));
  }

  /** The terminal stage's output format, configured by {@code terminalConf}. */
  @SuppressWarnings("unchecked")
  public static OutputFormat<Object, Object> real(Configuration terminalConf) {
    Class<?> c = terminalConf.getClass("mapreduce.job.outputformat.class", TextOutputFormat.class);
    return (OutputFormat<Object, Object>) ReflectionUtils.newInstance(c, terminalConf);
  }

  static JobContext terminal(JobContext context) {
    return new JobContextImpl(terminalConf(context.getConfiguration()), context.getJobID());
  }

  static TaskAttemptContext terminal(TaskAttemptContext context) {
    return new TaskAttemptContextImpl(
        terminalConf(context.getConfiguration()), context.getTaskAttemptID());
  }

  @Override
  public RecordWriter<Object, Object> getRecordWriter(TaskAttemptContext context) {
    return new RecordWriter<>() {
      @Override
      public void write(Object key, Object value) throws IOException {
        throw new IOException(
            "a Piranha task wrote through MapReduce's own collector; only terminal tasks write,"
                + " through the stage's output format");
      }

      @Override
      public void close(TaskAttemptContext c) {}
    };
  }

  @Override
  public void checkOutputSpecs(JobContext context) throws IOException, InterruptedException {
    JobContext t = terminal(context);
    real(t.getConfiguration()).checkOutputSpecs(t);
  }

  @Override
  public OutputCommitter getOutputCommitter(TaskAttemptContext context)
      throws IOException, InterruptedException {
    if (context.getConfiguration().get(MRJobConfig.TASK_ATTEMPT_ID) != null) {
      // A task JVM (the ApplicationMaster's job configuration names no attempt), where this is the
      // first Piranha code MapReduce runs, well before the task's own.
      ZkWarmUp.startInBackground();
    }
    TaskAttemptContext t = terminal(context);
    return new PartitionNamingCommitter(real(t.getConfiguration()).getOutputCommitter(t));
  }
}
