package dev.levee.themis.plan;

import dev.levee.themis.ThemisConf;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.YARNRunner;
import org.apache.hadoop.mapreduce.InputFormat;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.JobSubmissionFiles;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.split.JobSplitWriter;
import org.apache.hadoop.mapreduce.task.JobContextImpl;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * YARN's job client with phase 0 in front of {@code submitJob}: when Hadoop's JobSubmitter has
 * staged the job (job.xml, splits), this reads the staged job, plans it, writes the plan beside it,
 * rewrites job.xml (reducers, partitioner, plan path, framework name back to yarn) and, when maps
 * would outgrow their buffers, the splits; then YARN submits the job. Every other call goes to
 * YARN's client unchanged.
 */
final class PlanningSubmitter implements InvocationHandler {
  private static final Logger LOG = LoggerFactory.getLogger(PlanningSubmitter.class);
  static final String PLAN_FILE = "themis-partition.plan";

  private final YARNRunner yarn;
  private final Configuration conf;

  PlanningSubmitter(YARNRunner yarn, Configuration conf) {
    this.yarn = yarn;
    this.conf = conf;
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    if (method.getName().equals("submitJob") && args != null && args.length == 3) {
      plan((JobID) args[0], (String) args[1]);
    }
    try {
      return method.invoke(yarn, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  void close() throws IOException {
    yarn.close();
  }

  private void plan(JobID jobId, String submitDir) throws IOException, InterruptedException {
    Path dir = new Path(submitDir);
    FileSystem fs = dir.getFileSystem(conf);
    Path jobXml = JobSubmissionFiles.getJobConfPath(dir);
    JobConf job = read(fs, jobXml);
    job.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
    boolean required = ThemisConf.PLAN_REQUIRED.from(ThemisConf.source(job));
    if (job.getNumReduceTasks() == 0) {
      LOG.info("Themis phase 0: {} is map-only, nothing to plan", jobId);
    } else if (!ThemisConf.PLAN_PATH.from(ThemisConf.source(job)).isEmpty()) {
      LOG.info("Themis phase 0: {} already carries a plan, submitted as it is", jobId);
    } else {
      try {
        PlanReport report = ThemisPlanner.plan(job);
        if (report.fits() && report.heavyKeys().stream().noneMatch(HeavyKey::overflows)) {
          LOG.info("{}: {}", jobId, report.describe().stripTrailing());
        } else {
          // Kept partitioners and keys heavier than a reducer cannot be planned away: say so
          // before the job runs, as the paper's phase 0 would.
          LOG.warn("{}: {}", jobId, report.describe().stripTrailing());
        }
        ThemisPlanner.applyTo(job, report, new Path(dir, PLAN_FILE));
        if (report.splitMaxSize() > 0) {
          int maps = rewriteSplits(job, dir, fs);
          job.setInt(MRJobConfig.NUM_MAPS, maps);
          LOG.info("Themis phase 0: {} now has {} splits", jobId, maps);
        }
      } catch (IOException | RuntimeException e) {
        if (required) {
          throw new IOException(
              "Themis phase 0 could not plan "
                  + jobId
                  + " and "
                  + ThemisConf.PLAN_REQUIRED.name()
                  + "=true: "
                  + e.getMessage(),
              e);
        }
        LOG.warn(
            "Themis phase 0 could not plan {} ({}); submitting it with its own partitioner and"
                + " reducer count",
            jobId,
            e.toString());
      }
    }
    try (OutputStream out =
        FileSystem.create(fs, jobXml, new FsPermission(JobSubmissionFiles.JOB_FILE_PERMISSION))) {
      job.writeXml(out);
    }
  }

  private static JobConf read(FileSystem fs, Path jobXml) throws IOException {
    byte[] bytes;
    try (InputStream in = fs.open(jobXml)) {
      bytes = in.readAllBytes();
    }
    Configuration staged = new Configuration(false);
    staged.addResource(new ByteArrayInputStream(bytes), jobXml.toString());
    staged.size(); // loads it now
    return new JobConf(staged);
  }

  /** Splits again under the new split size, as JobSubmitter does (largest first). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int rewriteSplits(JobConf job, Path dir, FileSystem fs)
      throws IOException, InterruptedException {
    if (job.getUseNewMapper()) {
      JobContextImpl context = new JobContextImpl(job, null);
      InputFormat input;
      try {
        input = ReflectionUtils.newInstance(context.getInputFormatClass(), job);
      } catch (ClassNotFoundException e) {
        throw new IOException(e);
      }
      List<InputSplit> splits = input.getSplits(context);
      InputSplit[] array = splits.toArray(new InputSplit[0]);
      Arrays.sort(array, Comparator.comparingLong(PlanningSubmitter::length).reversed());
      JobSplitWriter.createSplitFiles(dir, job, fs, array);
      return array.length;
    }
    org.apache.hadoop.mapred.InputSplit[] splits =
        job.getInputFormat().getSplits(job, job.getNumMapTasks());
    Arrays.sort(
        splits,
        Comparator.comparingLong(
                (org.apache.hadoop.mapred.InputSplit s) -> {
                  try {
                    return s.getLength();
                  } catch (IOException e) {
                    return 0L;
                  }
                })
            .reversed());
    JobSplitWriter.createSplitFiles(dir, job, fs, splits);
    return splits.length;
  }

  private static long length(InputSplit split) {
    try {
      return split.getLength();
    } catch (IOException | InterruptedException e) {
      return 0;
    }
  }
}
