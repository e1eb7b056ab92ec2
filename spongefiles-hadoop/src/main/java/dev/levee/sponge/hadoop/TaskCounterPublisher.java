package dev.levee.sponge.hadoop;

import dev.levee.sponge.SpongeCounters;
import java.util.Map;
import org.apache.hadoop.mapred.Reporter;

/**
 * Copies SpongeFiles figures into the task's counters, group {@value
 * SpongeShuffleKeys#COUNTER_GROUP}, so they reach the job's counters and history like Hadoop's own.
 * Zero figures are left out: a job has a limited counter budget ({@code
 * mapreduce.job.counters.max}) and most tiers are idle most of the time.
 */
final class TaskCounterPublisher {
  private final Reporter reporter;

  TaskCounterPublisher(Reporter reporter) {
    this.reporter = reporter;
  }

  void publish(Map<String, Long> figures) {
    for (Map.Entry<String, Long> e : figures.entrySet()) {
      if (e.getValue() != 0) {
        increment(e.getKey(), e.getValue());
      }
    }
  }

  void increment(String name, long value) {
    reporter.getCounter(SpongeCounters.GROUP, name).increment(value);
  }
}
