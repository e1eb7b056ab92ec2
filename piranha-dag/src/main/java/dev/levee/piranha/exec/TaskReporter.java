package dev.levee.piranha.exec;

import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.StatusReporter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;

/**
 * The status reporter every step's context uses: counters, status and progress go to the real
 * MapReduce task, so user counters and the task timeout behave as in a stock task.
 */
public final class TaskReporter extends StatusReporter {
  private final TaskAttemptContext task;

  public TaskReporter(TaskAttemptContext task) {
    this.task = task;
  }

  @Override
  public Counter getCounter(Enum<?> name) {
    return task.getCounter(name);
  }

  @Override
  public Counter getCounter(String group, String name) {
    return task.getCounter(group, name);
  }

  @Override
  public void progress() {
    task.progress();
  }

  @Override
  public float getProgress() {
    return task.getProgress();
  }

  @Override
  public void setStatus(String status) {
    task.setStatus(status);
  }
}
