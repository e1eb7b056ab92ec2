package dev.levee.piranha.mr;

import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exec.TaskReporter;
import dev.levee.piranha.plan.RunPlan;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The input format of a Piranha job: one split per task of the DAG. Initial stages get their own
 * input format's splits, wrapped with their role; every other task gets an empty split (the paper's
 * zero-length splits that let the scheduler put them anywhere).
 */
public final class PiranhaInputFormat extends InputFormat<Object, Object> {

  /** Each initial stage's splits, computed with that stage's settings. */
  public static Map<String, List<InputSplit>> initialSplits(
      PiranhaDag dag, Configuration runConf, JobID jobId) throws IOException {
    Configuration base = dag.apply(runConf);
    Map<String, List<InputSplit>> splits = new LinkedHashMap<>();
    for (Stage s : dag.stages()) {
      if (s.initial()) {
        splits.put(s.name(), splitsOf(s, base, jobId));
      }
    }
    return splits;
  }

  private static List<InputSplit> splitsOf(Stage s, Configuration base, JobID jobId)
      throws IOException {
    Configuration c = s.first().apply(base);
    JobContext job = new JobContextImpl(c, jobId);
    try {
      InputFormat<?, ?> f = ReflectionUtils.newInstance(job.getInputFormatClass(), c);
      return f.getSplits(job);
    } catch (ClassNotFoundException e) {
      throw new IOException("the input format of stage '" + s.name() + "' is not found", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted computing splits of " + s.name());
    }
  }

  @Override
  public List<InputSplit> getSplits(JobContext context) throws IOException {
    Configuration conf = context.getConfiguration();
    RunPlan plan = RunPlan.decode(conf.get(JobKeys.PLAN));
    Configuration base = plan.dag().apply(conf);
    List<InputSplit> all = new ArrayList<>();
    for (int i = 0; i < plan.stageCount(); i++) {
      Stage s = plan.stage(i);
      if (s.initial()) {
        List<InputSplit> inner = splitsOf(s, base, context.getJobID());
        if (inner.size() != s.parallelism()) {
          throw new IOException(
              "the input format of stage '"
                  + s.name()
                  + "' returned "
                  + inner.size()
                  + " splits at submission but "
                  + s.parallelism()
                  + " when the run was planned; Piranha needs the same splits both times (did the"
                  + " input change?)");
        }
        for (int p = 0; p < inner.size(); p++) {
          all.add(new PiranhaSplit(new TaskId(i, p), inner.get(p)));
        }
      } else {
        for (int p = 0; p < s.parallelism(); p++) {
          all.add(new PiranhaSplit(new TaskId(i, p), null));
        }
      }
    }
    return all;
  }

  @Override
  @SuppressWarnings("unchecked")
  public RecordReader<Object, Object> createRecordReader(
      InputSplit split, TaskAttemptContext context) throws IOException, InterruptedException {
    PiranhaSplit ps = (PiranhaSplit) split;
    if (ps.inner() == null) {
      return new EmptyReader();
    }
    RunPlan plan = RunPlan.decode(context.getConfiguration().get(JobKeys.PLAN));
    Stage s = plan.stage(ps.task().stage());
    Configuration c = s.first().apply(plan.dag().apply(context.getConfiguration()));
    TaskAttemptContext stageContext =
        new TaskAttemptContextImpl(c, context.getTaskAttemptID(), new TaskReporter(context));
    InputFormat<Object, Object> f;
    try {
      f =
          (InputFormat<Object, Object>)
              ReflectionUtils.newInstance(stageContext.getInputFormatClass(), c);
    } catch (ClassNotFoundException e) {
      throw new IOException("the input format of stage '" + s.name() + "' is not found", e);
    }
    RecordReader<Object, Object> inner = f.createRecordReader(ps.inner(), stageContext);
    return new RecordReader<>() {
      @Override
      public void initialize(InputSplit ignored, TaskAttemptContext ctx)
          throws IOException, InterruptedException {
        inner.initialize(ps.inner(), stageContext);
      }

      @Override
      public boolean nextKeyValue() throws IOException, InterruptedException {
        return inner.nextKeyValue();
      }

      @Override
      public Object getCurrentKey() throws IOException, InterruptedException {
        return inner.getCurrentKey();
      }

      @Override
      public Object getCurrentValue() throws IOException, InterruptedException {
        return inner.getCurrentValue();
      }

      @Override
      public float getProgress() throws IOException, InterruptedException {
        return inner.getProgress();
      }

      @Override
      public void close() throws IOException {
        inner.close();
      }
    };
  }

  /** The reader of a task whose input arrives over the network. */
  private static final class EmptyReader extends RecordReader<Object, Object> {
    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) {}

    @Override
    public boolean nextKeyValue() {
      return false;
    }

    @Override
    public Object getCurrentKey() {
      return null;
    }

    @Override
    public Object getCurrentValue() {
      return null;
    }

    @Override
    public float getProgress() {
      return 0;
    }

    @Override
    public void close() {}
  }
}
