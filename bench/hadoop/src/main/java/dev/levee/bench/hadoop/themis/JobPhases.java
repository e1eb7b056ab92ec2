package dev.levee.bench.hadoop.themis;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * A finished job's two phases from its task reports, as the paper splits a sort: phase 1 reads the
 * input and writes the intermediate data (first map start to last map finish), phase 2 reads the
 * intermediate data and writes the output (last map finish to last reduce finish). A stock
 * reducer's shuffle overlaps phase 1 (slow start); what it has left after the last map is phase 2.
 */
record JobPhases(
    double jobSeconds,
    double mapSeconds,
    double reduceSeconds,
    long mapStartMillis,
    long mapEndMillis,
    long reduceEndMillis) {
  static JobPhases of(Job job) throws IOException, InterruptedException {
    long mapStart = Long.MAX_VALUE;
    long mapEnd = 0;
    for (TaskReport r : job.getTaskReports(TaskType.MAP)) {
      mapStart = Math.min(mapStart, r.getStartTime());
      mapEnd = Math.max(mapEnd, r.getFinishTime());
    }
    long reduceEnd = mapEnd;
    for (TaskReport r : job.getTaskReports(TaskType.REDUCE)) {
      reduceEnd = Math.max(reduceEnd, r.getFinishTime());
    }
    return new JobPhases(
        (job.getFinishTime() - job.getStartTime()) / 1000.0,
        (mapEnd - mapStart) / 1000.0,
        (reduceEnd - mapEnd) / 1000.0,
        mapStart,
        mapEnd,
        reduceEnd);
  }
}
