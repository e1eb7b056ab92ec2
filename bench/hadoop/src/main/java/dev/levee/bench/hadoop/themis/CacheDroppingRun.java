package dev.levee.bench.hadoop.themis;

import java.io.IOException;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;

/**
 * Runs a job with the page cache dropped between its phases, once the last map has finished, so the
 * disks serve the map outputs (the suite drops it before the job too, outside the job's disk
 * counts, so the disks serve the input). The suite sets reduce slow start to 1.0 for such runs, so
 * no reducer fetches before the drop; the report says whether the drop really finished before the
 * first reduce task started.
 */
final class CacheDroppingRun {
  /** Client-side poll of the job's map progress; the reducers' containers take seconds to start. */
  private static final long POLL_MS = 100;

  /**
   * @param drops the mid-job drop's time (part of the job's own) and the disk reads of reading the
   *     code back in, which the suite takes off the job's disk reads
   * @param beforeReduces the mid-job drop ended before the first reduce task started
   */
  record Report(PageCache.Drop drops, boolean beforeReduces) {
    double seconds() {
      return drops.seconds();
    }
  }

  private CacheDroppingRun() {}

  static Report run(Job job) throws IOException, InterruptedException, ClassNotFoundException {
    PageCache.Drop drops = new PageCache.Drop(0, 0);
    job.submit();
    long droppedAt = -1;
    while (!job.isComplete()) {
      if (droppedAt < 0 && job.mapProgress() >= 1f) {
        drops = drops.plus(PageCache.drop());
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
    return new Report(drops, droppedAt > 0 && droppedAt <= firstReduce);
  }
}
