package dev.levee.bench.hadoop.themis;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Runs a job with the page cache dropped before it starts (the disks serve the input) and again
 * between its phases, once the last map has finished (the disks serve the map outputs). The suite
 * sets reduce slow start to 1.0 for such runs, so no reducer fetches before the second drop; the
 * report says whether the drop really finished before the first reduce task started.
 */
final class CacheDroppingRun {
  /** Client-side poll of the job's map progress; the reducers' containers take seconds to start. */
  private static final long POLL_MS = 100;

  /**
   * @param seconds time spent in sync and drop, which counts in the job's own time for the second
   * @param beforeReduces the mid-job drop ended before the first reduce task started
   */
  record Report(double seconds, boolean beforeReduces) {}

  private CacheDroppingRun() {}

  static Report run(Job job) throws IOException, InterruptedException, ClassNotFoundException {
    double seconds = PageCache.drop();
    job.submit();
    long droppedAt = -1;
    while (!job.isComplete()) {
      if (droppedAt < 0 && job.mapProgress() >= 1f) {
        seconds += PageCache.drop();
        droppedAt = System.currentTimeMillis();
      }
      Thread.sleep(POLL_MS);
    }
    long firstReduce = Long.MAX_VALUE;
    for (TaskReport r : job.getTaskReports(TaskType.REDUCE)) {
      if (r.getStartTime() > 0) {
        firstReduce = Math.min(firstReduce, r.getStartTime());
      }
    }
    return new Report(seconds, droppedAt > 0 && droppedAt <= firstReduce);
  }
}
