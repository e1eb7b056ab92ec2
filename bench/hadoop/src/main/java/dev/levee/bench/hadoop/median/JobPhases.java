package dev.levee.bench.hadoop.median;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.mapreduce.TaskReport;

/**
 * Where a finished job's wall clock went, from its task reports: the map phase (first map start to
 * last map finish, speculative attempts included), how long the reducers waited after it (negative
 * when they started during it), the reduce phase, and what lay outside every task (submission, the
 * ApplicationMaster's start, the commit). A difference between two arms' job times can then be
 * placed: on this two-core machine the map phase of a dozen concurrent maps varies by seconds from
 * job to job, whatever the reducer does.
 */
public record JobPhases(
    double mapSeconds, double reduceWaitSeconds, double reduceSeconds, double outsideSeconds) {

  /** From the job's map and reduce task reports and its wall clock. */
  static JobPhases of(TaskReport[] maps, TaskReport[] reduces, double jobSeconds) {
    long firstMapStart = Long.MAX_VALUE;
    long lastMapFinish = 0;
    for (TaskReport m : maps) {
      firstMapStart = Math.min(firstMapStart, m.getStartTime());
      lastMapFinish = Math.max(lastMapFinish, m.getFinishTime());
    }
    long reduceStart = Long.MAX_VALUE;
    long reduceFinish = 0;
    for (TaskReport r : reduces) {
      reduceStart = Math.min(reduceStart, r.getStartTime());
      reduceFinish = Math.max(reduceFinish, r.getFinishTime());
    }
    if (firstMapStart == Long.MAX_VALUE || reduceStart == Long.MAX_VALUE) {
      throw new IllegalArgumentException("a job with no map or no reduce task has no phases");
    }
    double tasks = (Math.max(reduceFinish, lastMapFinish) - firstMapStart) / 1000.0;
    return new JobPhases(
        (lastMapFinish - firstMapStart) / 1000.0,
        (reduceStart - lastMapFinish) / 1000.0,
        (reduceFinish - reduceStart) / 1000.0,
        jobSeconds - tasks);
  }

  /** As result-line metrics. */
  public Map<String, Double> metrics() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("map_phase_seconds", mapSeconds);
    m.put("reduce_start_after_maps_seconds", reduceWaitSeconds);
    m.put("reduce_task_seconds", reduceSeconds);
    m.put("outside_tasks_seconds", outsideSeconds);
    return m;
  }
}
