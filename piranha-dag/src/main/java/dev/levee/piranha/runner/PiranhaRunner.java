package dev.levee.piranha.runner;

import dev.levee.piranha.PiranhaConf;
import dev.levee.piranha.dag.PiranhaDag;
import dev.levee.piranha.dag.Stage;
import dev.levee.piranha.dag.TaskId;
import dev.levee.piranha.exec.TaskTimeline;
import dev.levee.piranha.mr.ForcedSettings;
import dev.levee.piranha.mr.JobKeys;
import dev.levee.piranha.mr.PiranhaInputFormat;
import dev.levee.piranha.mr.PiranhaOutputFormat;
import dev.levee.piranha.mr.PiranhaTaskMapper;
import dev.levee.piranha.plan.RunPlan;
import dev.levee.piranha.rendezvous.ZkClients;
import dev.levee.piranha.rendezvous.ZkRunTracker;
import dev.levee.piranha.transport.ChannelAuth;
import dev.levee.piranha.yarn.CapacityCheck;
import dev.levee.piranha.yarn.YarnCapacityProbe;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobStatus;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link PiranhaDag} as one map-only MapReduce job, the paper's whole-job fault tolerance
 * included:
 *
 * <ol>
 *   <li>validate the settings (unknown {@code levee.piranha.*} keys are logged with the nearest
 *       known one) and force the MapReduce settings a push DAG needs ({@link ForcedSettings});
 *   <li>plan: split the initial stages, fix every stage's parallelism, fuse redundant stages;
 *   <li>check that the cluster can hold every task at once ({@link CapacityCheck}); if not, follow
 *       {@code levee.piranha.capacity.policy};
 *   <li>submit attempt k under fresh znodes and a per-run secret; if any task fails, the whole job
 *       fails, its partial output is removed, and attempt k+1 reruns everything, up to {@code
 *       levee.piranha.job.max-attempts}; then {@code levee.piranha.job.on-exhausted}.
 * </ol>
 *
 * The output appears only when the successful attempt's job commits.
 */
public final class PiranhaRunner {
  private static final Logger LOG = LoggerFactory.getLogger(PiranhaRunner.class);

  /** What to run when Piranha cannot: chained MapReduce by default, stock Pig for Pig scripts. */
  @FunctionalInterface
  public interface Fallback {
    RunResult run(String reason) throws IOException, InterruptedException;
  }

  private final Configuration conf;
  private boolean overrideUserSettings;

  public PiranhaRunner(Configuration conf) {
    this.conf = conf;
  }

  /**
   * Overrides (with a warning naming the key) rather than refuses a conflicting value of a setting
   * Piranha forces. For front ends that merge site and user settings into one flat set, where a
   * user's choice cannot be told from a site default (Pig).
   */
  public PiranhaRunner overridingConflictingSettings() {
    this.overrideUserSettings = true;
    return this;
  }

  /** Runs {@code dag}, falling back to chained MapReduce when the policies say so. */
  public RunResult run(PiranhaDag dag) throws IOException, InterruptedException {
    return run(dag, null);
  }

  /**
   * Runs {@code dag}; {@code fallback} (null: chained MapReduce of the same DAG) runs when the
   * policies fall back.
   */
  public RunResult run(PiranhaDag dag, Fallback fallback) throws IOException, InterruptedException {
    long submitted = System.currentTimeMillis();
    Configuration runConf = new Configuration(conf);
    PiranhaConf.REGISTRY.validate(PiranhaConf.source(runConf), LOG::warn);
    String runId = dag.name().replaceAll("[^A-Za-z0-9_.-]", "_") + "-" + randomHex();
    Path scratch = new Path(PiranhaConf.get(runConf, PiranhaConf.CHECKPOINT_DFS_DIR), runId);
    Fallback chained =
        fallback != null
            ? fallback
            : reason -> ChainedMapReduce.run(dag, runConf, reason, new Path(scratch, "chain"));

    Configuration jobBase = new Configuration(runConf);
    List<String> overridden = ForcedSettings.apply(jobBase, !overrideUserSettings);
    PiranhaConf.quorum(jobBase);
    if ("local".equals(jobBase.get("mapreduce.framework.name", "local"))) {
      LOG.info("Piranha on the local job runner: every task runs as a thread of this JVM");
    }

    Map<String, Integer> splitCounts = new LinkedHashMap<>();
    PiranhaInputFormat.initialSplits(dag, jobBase, null)
        .forEach((stage, splits) -> splitCounts.put(stage, splits.size()));
    RunPlan plan = RunPlan.resolve(dag, splitCounts);
    if (PiranhaConf.get(jobBase, PiranhaConf.ELIMINATE_REDUNDANT_STAGES)) {
      plan = plan.withoutRedundantStages(jobBase);
    }
    Configuration terminalConf = plan.dag().terminal().last().apply(plan.dag().apply(jobBase));
    Path output = FileOutputFormat.getOutputPath(Job.getInstance(terminalConf));
    FileSystem outFs = output == null ? null : output.getFileSystem(terminalConf);
    if (output != null && outFs.exists(output)) {
      throw new IOException(
          "output directory " + output + " of DAG " + dag.name() + " already exists");
    }
    LOG.info(
        "Piranha DAG {}: {} tasks in {} stages {} (redundant stages {}); forced settings {}",
        dag.name(),
        plan.taskCount(),
        plan.stageCount(),
        stageSummary(plan),
        PiranhaConf.get(jobBase, PiranhaConf.ELIMINATE_REDUNDANT_STAGES) ? "fused" : "kept",
        overridden.isEmpty() ? "already in place" : "overridden: " + overridden);

    PiranhaConf.Policy capacityPolicy = PiranhaConf.get(jobBase, PiranhaConf.CAPACITY_POLICY);
    if (PiranhaConf.get(jobBase, PiranhaConf.CAPACITY_CHECK)
        && !"local".equals(jobBase.get("mapreduce.framework.name", "local"))) {
      CapacityCheck.Verdict v = YarnCapacityProbe.check(jobBase, plan.taskCount());
      if (!v.fits()) {
        if (capacityPolicy == PiranhaConf.Policy.FAIL) {
          throw new CapacityException(dag.name(), v);
        }
        return fallBack(
            chained,
            "the cluster cannot hold the whole DAG at once: " + v.explanation(),
            List.of());
      }
      LOG.info("Piranha capacity check: {}", v.explanation());
    }

    int maxAttempts = PiranhaConf.get(jobBase, PiranhaConf.MAX_ATTEMPTS);
    List<String> failures = new ArrayList<>();
    ZkRunTracker tracker =
        new ZkRunTracker(
            ZkClients.connect(jobBase), PiranhaConf.get(jobBase, PiranhaConf.ZK_ROOT), runId);
    byte[] secret = ChannelAuth.newSecret();
    try {
      for (int attempt = 1; attempt <= maxAttempts; attempt++) {
        Attempt a = new Attempt(plan, jobBase, runId, attempt, secret, tracker, output, outFs);
        AttemptOutcome outcome = a.run();
        if (outcome.succeeded) {
          long finished = System.currentTimeMillis();
          Map<TaskId, TaskTimeline> timelines = new LinkedHashMap<>();
          tracker
              .doneReports(attempt)
              .forEach((t, text) -> timelines.put(t, TaskTimeline.decode(text)));
          return new RunResult(
              RunResult.Mode.PIRANHA,
              attempt,
              failures,
              null,
              outcome.job.getCounters(),
              submitted,
              finished,
              plan.dag().stages().stream().map(Stage::name).toList(),
              timelines,
              List.of(outcome.job.getJobID().toString()),
              StageBreakdown.of(plan, timelines, submitted, finished));
        }
        failures.add("attempt " + attempt + ": " + outcome.reason);
        LOG.warn("Piranha DAG {} attempt {} failed: {}", dag.name(), attempt, outcome.reason);
        if (outcome.unschedulable) {
          if (capacityPolicy == PiranhaConf.Policy.FAIL) {
            throw new PiranhaRunException(
                "Piranha DAG " + dag.name() + " could not start all its tasks", failures);
          }
          return fallBack(chained, outcome.reason, failures);
        }
      }
    } finally {
      tracker.deleteRun();
      tracker.close();
      deleteQuietly(scratch, jobBase);
    }
    if (PiranhaConf.get(jobBase, PiranhaConf.ON_EXHAUSTED) == PiranhaConf.Policy.FALLBACK) {
      return fallBack(chained, "all " + maxAttempts + " Piranha attempts failed", failures);
    }
    throw new PiranhaRunException(
        "Piranha DAG " + dag.name() + " failed in all " + maxAttempts + " attempts", failures);
  }

  private static RunResult fallBack(Fallback fallback, String reason, List<String> failures)
      throws IOException, InterruptedException {
    RunResult r = fallback.run(reason);
    if (r == null) {
      // The fallback reported its result its own way (stock Pig's statistics).
      return new RunResult(
          RunResult.Mode.CHAINED_MAPREDUCE,
          0,
          failures,
          reason,
          null,
          0,
          0,
          List.of(),
          Map.of(),
          List.of(),
          null);
    }
    return new RunResult(
        r.mode(),
        r.attempts(),
        failures,
        r.fallbackReason(),
        r.counters(),
        r.submittedMillis(),
        r.finishedMillis(),
        r.stageNames(),
        r.timelines(),
        r.jobIds(),
        r.stageBreakdown());
  }

  private static String stageSummary(RunPlan plan) {
    List<String> s = new ArrayList<>();
    for (Stage st : plan.dag().stages()) {
      s.add(st.name() + "x" + st.parallelism());
    }
    return String.join(" -> ", s);
  }

  private static void deleteQuietly(Path p, Configuration c) {
    try {
      p.getFileSystem(c).delete(p, true);
    } catch (IOException e) {
      LOG.warn("could not delete Piranha scratch {}: {}", p, e.toString());
    }
  }

  private static String randomHex() {
    byte[] b = new byte[4];
    ThreadLocalRandom.current().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  private record AttemptOutcome(boolean succeeded, Job job, String reason, boolean unschedulable) {}

  /** One submission of the whole DAG. */
  private static final class Attempt {
    private final RunPlan plan;
    private final Configuration base;
    private final String runId;
    private final int attempt;
    private final byte[] secret;
    private final ZkRunTracker tracker;
    private final Path output;
    private final FileSystem outFs;

    Attempt(
        RunPlan plan,
        Configuration base,
        String runId,
        int attempt,
        byte[] secret,
        ZkRunTracker tracker,
        Path output,
        FileSystem outFs) {
      this.plan = plan;
      this.base = base;
      this.runId = runId;
      this.attempt = attempt;
      this.secret = secret;
      this.tracker = tracker;
      this.output = output;
      this.outFs = outFs;
    }

    AttemptOutcome run() throws IOException, InterruptedException {
      tracker.createAttempt(attempt);
      Job job = newJob();
      try {
        job.submit();
      } catch (ClassNotFoundException e) {
        throw new IOException("a class of the Piranha job is not found at submission", e);
      }
      LOG.info(
          "Piranha DAG {} attempt {} submitted as {}", plan.dag().name(), attempt, job.getJobID());
      int poll = Math.max(50, base.getInt(Job.COMPLETION_POLL_INTERVAL_KEY, 5000));
      long scheduleDeadline =
          System.currentTimeMillis() + PiranhaConf.get(base, PiranhaConf.SCHEDULE_TIMEOUT_MS);
      boolean allStarted = false;
      while (!job.isComplete()) {
        String abort = tracker.abortReason(attempt);
        if (abort != null) {
          // The tasks stop on their own within a second; killing the job only saves the AM's wait.
          LOG.warn("Piranha attempt {} aborted by {}", attempt, abort);
          killQuietly(job);
          break;
        }
        if (!allStarted) {
          int started = startedTasks();
          allStarted = started >= plan.taskCount();
          if (!allStarted && System.currentTimeMillis() > scheduleDeadline) {
            killQuietly(job);
            cleanOutput();
            return new AttemptOutcome(
                false,
                job,
                "only "
                    + Math.max(started, 0)
                    + " of "
                    + plan.taskCount()
                    + " tasks started within "
                    + PiranhaConf.SCHEDULE_TIMEOUT_MS.name()
                    + "="
                    + PiranhaConf.get(base, PiranhaConf.SCHEDULE_TIMEOUT_MS)
                    + " ms (the cluster is busier than the capacity check saw)",
                true);
          }
        }
        Thread.sleep(poll);
      }
      waitUntilComplete(job, poll);
      if (job.isSuccessful()) {
        return new AttemptOutcome(true, job, null, false);
      }
      // The abort names the first task that noticed; MapReduce's diagnostics say what each failed
      // task
      // died of (the ApplicationMaster may kill the others before the abort reaches them).
      String abort = tracker.abortReason(attempt);
      String reason = (abort == null ? "" : "aborted by " + abort + "; ") + failureOf(job);
      cleanOutput();
      return new AttemptOutcome(false, job, reason, false);
    }

    /**
     * Tasks seen in ZooKeeper, or -1 while it cannot be asked (the tasks' own waits bound this).
     */
    private int startedTasks() {
      try {
        return tracker.started(attempt).size();
      } catch (IOException e) {
        return -1;
      }
    }

    private Job newJob() throws IOException {
      Configuration c = new Configuration(base);
      // DAG-wide settings hold for the job too (e.g. files a front end ships to every task).
      plan.dag().conf().forEach(c::set);
      c.set(JobKeys.PLAN, plan.encode());
      c.set(JobKeys.RUN_ID, runId);
      c.setInt(JobKeys.ATTEMPT, attempt);
      ForcedSettings.apply(c, false);
      if ("local".equals(c.get("mapreduce.framework.name", "local"))) {
        c.setInt("mapreduce.local.map.tasks.maximum", plan.taskCount());
      }
      Job job = Job.getInstance(c, "piranha:" + plan.dag().name() + "#" + attempt);
      job.setInputFormatClass(PiranhaInputFormat.class);
      job.setMapperClass(PiranhaTaskMapper.class);
      job.setNumReduceTasks(0);
      job.setOutputFormatClass(PiranhaOutputFormat.class);
      job.getCredentials().addSecretKey(JobKeys.SECRET, secret);
      if (c.get("mapreduce.job.jar") == null) {
        job.setJarByClass(PiranhaTaskMapper.class);
      }
      return job;
    }

    private void cleanOutput() {
      // The output directory did not exist before the run (checked), so whatever is there now is
      // this attempt's: the committer's aborted temporaries, or an empty directory.
      if (output == null) {
        return;
      }
      try {
        outFs.delete(output, true);
      } catch (IOException e) {
        LOG.warn("could not remove the partial output {}: {}", output, e.toString());
      }
    }

    private static void waitUntilComplete(Job job, int poll)
        throws IOException, InterruptedException {
      long deadline = System.currentTimeMillis() + 120_000;
      while (!job.isComplete() && System.currentTimeMillis() < deadline) {
        Thread.sleep(poll);
      }
    }

    private static void killQuietly(Job job) {
      try {
        job.killJob();
      } catch (IOException e) {
        LOG.warn("could not kill {}: {}", job.getJobID(), e.toString());
      }
    }

    private static String failureOf(Job job) {
      StringBuilder s = new StringBuilder();
      try {
        JobStatus st = job.getStatus();
        s.append(job.getJobID()).append(' ').append(st.getState());
        if (st.getFailureInfo() != null && !st.getFailureInfo().isEmpty()) {
          s.append(": ").append(st.getFailureInfo());
        }
        for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 10_000)) {
          if (e.getStatus() == TaskCompletionEvent.Status.FAILED
              || e.getStatus() == TaskCompletionEvent.Status.TIPFAILED) {
            for (String d : job.getTaskDiagnostics(e.getTaskAttemptId())) {
              s.append("\n    ").append(e.getTaskAttemptId()).append(": ").append(firstLine(d));
            }
          }
        }
      } catch (IOException | InterruptedException e) {
        s.append(" (diagnostics unavailable: ").append(e).append(')');
      }
      return s.toString();
    }

    private static String firstLine(String s) {
      int nl = s.indexOf('\n');
      return nl < 0 ? s : s.substring(0, nl);
    }
  }
}
