package dev.levee.piranha.runner;

import dev.levee.piranha.dag.DagException;
import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.dag.RecordAdapter;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.Step;
import dev.levee.piranha.exec.StepTypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.input.SequenceFileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.hadoop.mapreduce.lib.output.SequenceFileOutputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The same DAG as stock chained MapReduce jobs: each map stage and the shuffle stage after it
 * become one job, linked through SequenceFiles in a scratch directory (or through the paths the
 * original jobs of an {@link dev.levee.piranha.dag.MrChain} named). This is what a DAG falls back
 * to when the cluster cannot hold it or its attempts are exhausted: slower, but with MapReduce's
 * task-level retries and no co-scheduling.
 */
public final class ChainedMapReduce {
  private static final Logger LOG = LoggerFactory.getLogger(ChainedMapReduce.class);

  private ChainedMapReduce() {}

  /** One job of the chain: its map step (null: identity) and reduce step (null: map-only). */
  private record JobSpec(Step map, Step reduce, int reduces, String name) {}

  /** The stock jobs, configured but not submitted; intermediate data goes under {@code scratch}. */
  public static List<Job> plan(PiranhaDag dag, Configuration runConf, Path scratch)
      throws IOException {
    if (!dag.isChain()) {
      throw new DagException(
          "DAG "
              + dag.name()
              + " is not a chain (one initial stage, each later stage fed by the one before it),"
              + " so it has no chained MapReduce form");
    }
    List<JobSpec> specs = new ArrayList<>();
    Step pendingMap = null;
    String pendingName = null;
    for (Stage s : dag.stages()) {
      for (Step step : s.steps()) {
        if (step.kind() == Step.Kind.MAP) {
          if (pendingMap != null) {
            specs.add(new JobSpec(pendingMap, null, 0, pendingName));
          }
          pendingMap = step;
          pendingName = s.name();
        } else {
          specs.add(
              new JobSpec(
                  pendingMap,
                  step,
                  s.parallelism(),
                  pendingName == null ? s.name() : pendingName + "+" + s.name()));
          pendingMap = null;
          pendingName = null;
        }
      }
    }
    if (pendingMap != null) {
      specs.add(new JobSpec(pendingMap, null, 0, pendingName));
    }

    Configuration base = dag.apply(runConf);
    List<Job> jobs = new ArrayList<>();
    Path previousOut = null;
    for (int k = 0; k < specs.size(); k++) {
      JobSpec spec = specs.get(k);
      boolean last = k == specs.size() - 1;
      Configuration c = new Configuration(base);
      if (spec.map() != null) {
        spec.map().conf().forEach(c::set);
      }
      if (spec.reduce() != null) {
        spec.reduce().conf().forEach(c::set);
      }
      Job job = Job.getInstance(c, "piranha-fallback:" + dag.name() + ":" + spec.name());
      if (spec.map() == null) {
        job.setMapperClass(Mapper.class);
      }
      job.setNumReduceTasks(spec.reduces());
      if (k > 0) {
        boolean adapted =
            spec.map() != null && spec.map().conf().containsKey(RecordAdapter.MODE_KEY);
        if (!adapted) {
          job.setInputFormatClass(SequenceFileInputFormat.class);
          FileInputFormat.setInputPaths(job, previousOut);
        }
      }
      if (!last) {
        Step lastStep = spec.reduce() != null ? spec.reduce() : spec.map();
        Map<String, String> own = lastStep.conf();
        if (own.containsKey(FileOutputFormat.OUTDIR)) {
          // An MrChain job: it writes where the next job reads, in its own format.
          previousOut = new Path(own.get(FileOutputFormat.OUTDIR));
        } else {
          previousOut = new Path(scratch, "job-" + (k + 1));
          job.setOutputFormatClass(SequenceFileOutputFormat.class);
          FileOutputFormat.setOutputPath(job, previousOut);
          Configuration lc = lastStep.apply(base);
          job.setOutputKeyClass(StepTypes.outputKey(lastStep.kind(), lc));
          job.setOutputValueClass(StepTypes.outputValue(lastStep.kind(), lc));
        }
      }
      jobs.add(job);
    }
    return jobs;
  }

  /** Runs the DAG as chained MapReduce, one job after another. */
  public static RunResult run(PiranhaDag dag, Configuration runConf, String reason, Path scratch)
      throws IOException, InterruptedException {
    LOG.warn("Piranha runs DAG {} as chained MapReduce: {}", dag.name(), reason);
    long start = System.currentTimeMillis();
    List<Job> jobs = plan(dag, runConf, scratch);
    List<String> ids = new ArrayList<>();
    Counters last = null;
    FileSystem fs = scratch.getFileSystem(runConf);
    try {
      for (Job job : jobs) {
        boolean ok;
        try {
          ok = job.waitForCompletion(false);
        } catch (ClassNotFoundException e) {
          throw new IOException("a class of job " + job.getJobName() + " is not found", e);
        }
        if (!ok) {
          throw new PiranhaRunException(
              "chained MapReduce fallback of " + dag.name() + " failed at job " + job.getJobName(),
              List.of(String.valueOf(job.getStatus().getFailureInfo())));
        }
        ids.add(job.getJobID().toString());
        last = job.getCounters();
      }
    } finally {
      fs.delete(scratch, true);
    }
    return new RunResult(
        RunResult.Mode.CHAINED_MAPREDUCE,
        0,
        List.of(),
        reason,
        last,
        start,
        System.currentTimeMillis(),
        dag.stages().stream().map(Stage::name).toList(),
        Map.of(),
        ids,
        null);
  }
}
