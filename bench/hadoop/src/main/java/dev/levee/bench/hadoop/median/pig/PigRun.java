package dev.levee.bench.hadoop.median.pig;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.pig.PigOnMiniCluster;
import java.io.IOException;
import java.util.List;
import java.util.Properties;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.pig.PigServer;
import org.apache.pig.backend.executionengine.ExecJob;
import org.apache.pig.tools.pigstats.JobStats;
import org.apache.pig.tools.pigstats.PigStats;

/**
 * One timed run of a Pig query that compiles to a single MapReduce job with one reducer: wall clock
 * from submission to the output being stored, the output's digest, and the reduce task's attempt
 * and counters (where the bags spilled).
 */
public record PigRun(
    double seconds,
    OutputDigest digest,
    JobID jobId,
    TaskAttemptID reduceAttempt,
    Counters reduceCounters) {

  public static PigRun run(
      MiniMapReduceCluster cluster, Properties properties, List<String> statements, Path output)
      throws Exception {
    FileSystem fs = cluster.fileSystem();
    fs.delete(output, true);
    PigServer pig = PigOnMiniCluster.start(cluster, properties);
    try {
      pig.setBatchOn();
      for (String statement : statements) {
        pig.registerQuery(statement);
      }
      long start = System.nanoTime();
      List<ExecJob> jobs = pig.executeBatch();
      double seconds = (System.nanoTime() - start) / 1e9;
      if (jobs.size() != 1 || jobs.get(0).getStatus() != ExecJob.JOB_STATUS.COMPLETED) {
        throw new IOException(
            "Pig query did not complete: "
                + (jobs.isEmpty() ? "no job" : String.valueOf(jobs.get(0).getException())));
      }
      PigStats stats = jobs.get(0).getStatistics();
      if (!stats.isSuccessful() || stats.getNumberJobs() != 1) {
        throw new IOException(
            "Pig query ran "
                + stats.getNumberJobs()
                + " MapReduce job(s), expected 1 successful: "
                + stats.getErrorMessage());
      }
      JobStats js = (JobStats) stats.getJobGraph().getSources().get(0);
      JobID id = JobID.forName(js.getJobId());
      Job job = new Cluster(cluster.clientConf()).getJob(id);
      TaskReport[] reduces = job.getTaskReports(TaskType.REDUCE);
      if (reduces.length != 1) {
        throw new IOException(
            id + " ran " + reduces.length + " reduce tasks; the query asks for 1");
      }
      return new PigRun(
          seconds,
          OutputDigest.ofDirectory(fs, output),
          id,
          reduces[0].getSuccessfulTaskAttemptId(),
          reduces[0].getTaskCounters());
    } finally {
      pig.shutdown();
    }
  }
}
