package dev.levee.piranha.exec;

import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exchange.PartitionBuffer;
import dev.levee.piranha.plan.RunPlan;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Partitioner;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * Where a non-terminal stage's last step writes: every record goes to each child stage,
 * partitioned, sorted and combined by that child's settings for a shuffled child, or as is to the
 * one child task it feeds for a forward child.
 */
final class PushOutput extends RecordWriter<Object, Object> {
  private final List<Edge> edges = new ArrayList<>();
  private final Pusher pusher;

  private record Edge(PartitionBuffer buffer, Partitioner<Object, Object> partitioner, int tasks) {}

  @SuppressWarnings("unchecked")
  PushOutput(
      RunPlan plan,
      TaskId self,
      Configuration base,
      int bufferBytes,
      Pusher pusher,
      TaskAttemptID attempt,
      TaskReporter reporter)
      throws IOException {
    this.pusher = pusher;
    Stage own = plan.stage(self.stage());
    Configuration ownLast = own.last().apply(base);
    for (int c : plan.childStages(self.stage())) {
      Stage child = plan.stage(c);
      int childStage = c;
      if (child.shuffled()) {
        Configuration cc = child.first().apply(base);
        JobContextImpl job = new JobContextImpl(cc, null);
        Class<? extends Reducer<?, ?, ?, ?>> combiner;
        Partitioner<Object, Object> partitioner;
        try {
          combiner = job.getCombinerClass();
          partitioner =
              (Partitioner<Object, Object>)
                  ReflectionUtils.newInstance(job.getPartitionerClass(), cc);
        } catch (ClassNotFoundException e) {
          throw new IOException(
              "a class of stage '" + child.name() + "' is not on the task's classpath", e);
        }
        PartitionBuffer buffer =
            new PartitionBuffer(
                cc,
                job.getMapOutputKeyClass(),
                job.getMapOutputValueClass(),
                bufferBytes,
                child.parallelism(),
                job.getSortComparator(),
                combiner == null ? null : new CombinerRunner(cc, combiner, attempt, reporter),
                (p, run) -> send(new TaskId(childStage, p), run));
        edges.add(new Edge(buffer, partitioner, child.parallelism()));
      } else {
        TaskId target = new TaskId(c, self.partition() % child.parallelism());
        PartitionBuffer buffer =
            new PartitionBuffer(
                ownLast,
                StepTypes.outputKey(own.last().kind(), ownLast),
                StepTypes.outputValue(own.last().kind(), ownLast),
                bufferBytes,
                1,
                null,
                null,
                (p, run) -> send(target, run));
        edges.add(new Edge(buffer, null, 1));
      }
    }
  }

  private void send(TaskId to, dev.levee.piranha.exchange.Run run) throws IOException {
    try {
      pusher.send(to, run);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("interrupted while pushing to " + to);
    }
  }

  @Override
  public void write(Object key, Object value) throws IOException {
    for (Edge e : edges) {
      if (key == null && e.partitioner != null) {
        throw new IOException(
            "a null key cannot be partitioned for a shuffle stage; records sent to a reducer need"
                + " a key");
      }
      int p = e.partitioner == null ? 0 : e.partitioner.getPartition(key, value, e.tasks);
      e.buffer.add(p, key, value);
    }
  }

  /** Flushes every buffer, ends every stream and waits for the acknowledgements. */
  @Override
  public void close(TaskAttemptContext context) throws IOException, InterruptedException {
    for (Edge e : edges) {
      e.buffer.flush();
    }
    pusher.finish();
  }
}
