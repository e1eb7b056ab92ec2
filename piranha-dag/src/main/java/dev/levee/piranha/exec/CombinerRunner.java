package dev.levee.piranha.exec;

import dev.levee.piranha.exchange.PartitionBuffer;
import dev.levee.piranha.exchange.RunBuilder;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.RawComparator;
import org.apache.hadoop.mapred.RawKeyValueIterator;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.Reducer;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.reduce.WrappedReducer;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.mapreduce.task.ReduceContextImpl;
import org.apache.hadoop.util.ReflectionUtils;

/**
 * The child stage's combiner ({@code Job.setCombinerClass}) run by a parent over each sorted run
 * before it is pushed, grouping keys by the combiner grouping comparator as a map task's spill
 * does.
 */
final class CombinerRunner implements PartitionBuffer.Combiner {
  private final Configuration conf;
  private final Class<? extends Reducer<?, ?, ?, ?>> combinerClass;
  private final TaskAttemptID attempt;
  private final TaskReporter reporter;

  CombinerRunner(
      Configuration childConf,
      Class<? extends Reducer<?, ?, ?, ?>> combinerClass,
      TaskAttemptID attempt,
      TaskReporter reporter) {
    this.conf = childConf;
    this.combinerClass = combinerClass;
    this.attempt = attempt;
    this.reporter = reporter;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void combine(RawKeyValueIterator sorted, RunBuilder out) throws IOException {
    JobContextImpl job = new JobContextImpl(conf, null);
    Reducer<Object, Object, Object, Object> combiner =
        (Reducer<Object, Object, Object, Object>) ReflectionUtils.newInstance(combinerClass, conf);
    RecordWriter<Object, Object> writer =
        new RecordWriter<>() {
          @Override
          public void write(Object key, Object value) throws IOException {
            reporter.getCounter(TaskCounter.COMBINE_OUTPUT_RECORDS).increment(1);
            out.add(key, value);
          }

          @Override
          public void close(TaskAttemptContext context) {}
        };
    try {
      ReduceContextImpl<Object, Object, Object, Object> ctx =
          new ReduceContextImpl<>(
              conf,
              attempt,
              sorted,
              null,
              reporter.getCounter(TaskCounter.COMBINE_INPUT_RECORDS),
              writer,
              null,
              reporter,
              (RawComparator<Object>) job.getCombinerKeyGroupingComparator(),
              (Class<Object>) job.getMapOutputKeyClass(),
              (Class<Object>) job.getMapOutputValueClass());
      combiner.run(new WrappedReducer<Object, Object, Object, Object>().getReducerContext(ctx));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted in the combiner");
    }
  }
}
