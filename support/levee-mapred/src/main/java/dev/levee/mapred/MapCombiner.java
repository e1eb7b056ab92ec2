package dev.levee.mapred;

import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.Task.CombineOutputCollector;
import org.apache.hadoop.mapred.Task.CombinerRunner;
import org.apache.hadoop.mapred.Task.TaskReporter;
import org.apache.hadoop.mapred.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskCounter;

/**
 * The job's combiner as a map task's collector runs it (stock's MapOutputBuffer makes the same two
 * objects): the runner, counting its input, and the collector it writes through, counting its
 * output. Both null when the job has no combiner.
 */
public record MapCombiner<K, V>(
    CombinerRunner<K, V> runner, CombineOutputCollector<K, V> collector) {

  public static <K, V> MapCombiner<K, V> of(JobConf job, TaskAttemptID task, TaskReporter reporter)
      throws ClassNotFoundException {
    CombinerRunner<K, V> runner =
        CombinerRunner.create(
            job, task, reporter.getCounter(TaskCounter.COMBINE_INPUT_RECORDS), reporter, null);
    return new MapCombiner<>(
        runner,
        runner == null
            ? null
            : new CombineOutputCollector<>(
                reporter.getCounter(TaskCounter.COMBINE_OUTPUT_RECORDS), reporter, job));
  }

  /** No combiner. */
  public static <K, V> MapCombiner<K, V> none() {
    return new MapCombiner<>(null, null);
  }
}
