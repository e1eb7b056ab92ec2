package dev.levee.containers.jobs;

import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.runner.PiranhaRunner;
import dev.levee.piranha.runner.RunResult;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;

/**
 * A query run both ways the Piranha tests compare, with what the client prints for the test: the
 * stock chain, each job waiting for the one before it, and one Piranha DAG, with how it ran as
 * counters of the group {@value #RUN_GROUP} (as Piranha or not, attempts, stages, YARN jobs).
 */
final class QueryRuns {
  static final String RUN_GROUP = "Levee Piranha run";

  private QueryRuns() {}

  /** Runs {@code chain} in order, stopping at the first failure; prints the last job's report. */
  static int stock(List<Job> chain, FileSystem fs, Path output) throws Exception {
    Job last = null;
    for (Job job : chain) {
      boolean ok = job.waitForCompletion(true);
      last = job;
      if (!ok) {
        JobReport.print(job.getCounters(), false, fs, output);
        return 1;
      }
    }
    JobReport.print(last.getCounters(), true, fs, output);
    return 0;
  }

  /** Runs {@code dag} with Piranha's runner and prints how it ran and its report. */
  static int piranha(Configuration conf, PiranhaDag dag, FileSystem fs, Path output)
      throws Exception {
    RunResult r = new PiranhaRunner(conf).run(dag);
    if (r.mode() != RunResult.Mode.PIRANHA) {
      System.err.println("ran as chained MapReduce: " + r.fallbackReason());
    }
    System.err.println("failed attempts: " + r.failedAttempts());
    System.out.println(
        "COUNTER\t" + RUN_GROUP + "\tas piranha\t" + (r.mode() == RunResult.Mode.PIRANHA ? 1 : 0));
    System.out.println("COUNTER\t" + RUN_GROUP + "\tattempts\t" + r.attempts());
    System.out.println("COUNTER\t" + RUN_GROUP + "\tstages\t" + r.stageNames().size());
    System.out.println("COUNTER\t" + RUN_GROUP + "\tjobs\t" + r.jobIds().size());
    JobReport.print(r.counters(), true, fs, output);
    return 0;
  }
}
