package dev.levee.bench.hadoop.median.pig;

import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.pig.PigOnMiniCluster;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.TaskReport;
import org.apache.hadoop.mapreduce.TaskType;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
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

  /**
   * Runs the query and waits for it; after {@code timeoutSeconds} kills every application still on
   * the cluster (a job can wait forever for a node whose local dirs are all marked bad) and fails.
   */
  public static PigRun run(
      MiniMapReduceCluster cluster,
      Properties properties,
      List<String> statements,
      Path output,
      long timeoutSeconds)
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
      List<ExecJob> jobs = executeBatch(pig, cluster, timeoutSeconds);
      double seconds = (System.nanoTime() - start) / 1e9;
      if (jobs.size() != 1) {
        throw new IOException("Pig query ran " + jobs.size() + " stores, expected 1");
      }
      PigStats stats = jobs.get(0).getStatistics();
      if (jobs.get(0).getStatus() != ExecJob.JOB_STATUS.COMPLETED) {
        // Pig leaves the exception null when the MapReduce job failed; its stats say why.
        throw new IOException(
            "Pig query failed: "
                + (jobs.get(0).getException() != null
                    ? jobs.get(0).getException()
                    : stats.getErrorMessage()));
      }
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

  private static List<ExecJob> executeBatch(
      PigServer pig, MiniMapReduceCluster cluster, long timeoutSeconds) throws Exception {
    ExecutorService one =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "pig-batch");
              t.setDaemon(true);
              return t;
            });
    try {
      java.util.concurrent.Callable<List<ExecJob>> query = pig::executeBatch;
      Future<List<ExecJob>> batch = one.submit(query);
      try {
        return batch.get(timeoutSeconds, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        killUnfinishedApplications(cluster);
        try {
          batch.get(60, TimeUnit.SECONDS);
        } catch (Exception afterKill) {
          // the query's own failure after the kill adds nothing to the timeout
        }
        throw new IOException(
            "Pig query still running after " + timeoutSeconds + " s; its jobs were killed");
      } catch (ExecutionException e) {
        throw new IOException("Pig query failed: " + e.getCause(), e.getCause());
      }
    } finally {
      one.shutdownNow();
    }
  }

  private static void killUnfinishedApplications(MiniMapReduceCluster cluster) throws Exception {
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(cluster.clientConf());
      yarn.start();
      for (ApplicationReport app :
          yarn.getApplications(
              EnumSet.of(
                  YarnApplicationState.NEW,
                  YarnApplicationState.NEW_SAVING,
                  YarnApplicationState.SUBMITTED,
                  YarnApplicationState.ACCEPTED,
                  YarnApplicationState.RUNNING))) {
        yarn.killApplication(app.getApplicationId());
      }
    }
  }
}
