package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.ClusterFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.themis.IoAudit;
import dev.levee.themis.ThemisCounters;
import dev.levee.themis.map.ThemisMapOutputCollector;
import dev.levee.themis.reduce.ThemisShuffle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Cluster;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TypeConverter;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the Themis tests on the mini cluster share: the switch, the stock oracle, the audit. */
final class ThemisJobs {
  private static final Logger LOG = LoggerFactory.getLogger(ThemisJobs.class);

  private ThemisJobs() {}

  /** The two keys a user sets in mapred-site.xml, on top of {@code conf}. */
  static Configuration themis(Configuration conf) {
    Configuration c = new Configuration(conf);
    c.set(MRJobConfig.MAP_OUTPUT_COLLECTOR_CLASS_ATTR, ThemisMapOutputCollector.class.getName());
    c.set(MRConfig.SHUFFLE_CONSUMER_PLUGIN, ThemisShuffle.class.getName());
    return c;
  }

  /**
   * Stock Hadoop on the LocalJobRunner, reading and writing the cluster's HDFS: the oracle the
   * Themis runs on YARN are compared with (stock MapReduce, a few seconds instead of a YARN job).
   */
  static Configuration stockLocal(MiniMapReduceCluster cluster) {
    Configuration c = cluster.clientConf();
    c.set(MRConfig.FRAMEWORK_NAME, MRConfig.LOCAL_FRAMEWORK_NAME);
    c.set(MRConfig.LOCAL_DIR, cluster.workDir().resolve("local-runner").toString());
    c.setInt("mapreduce.local.map.tasks.maximum", 2);
    c.setInt("mapreduce.local.reduce.tasks.maximum", 2);
    return c;
  }

  /** Every part file of a job's output, concatenated in part order, as bytes in a string. */
  static String output(FileSystem fs, Path dir) throws IOException {
    ByteArrayOutputStream all = new ByteArrayOutputStream();
    for (Path part : ClusterFiles.partFiles(fs, dir)) {
      all.writeBytes(("== " + part.getName() + "\n").getBytes(StandardCharsets.UTF_8));
      try (InputStream in = fs.open(part)) {
        in.transferTo(all);
      }
    }
    return all.toString(StandardCharsets.ISO_8859_1);
  }

  /** The finished YARN job named {@code name} that started last, for its counters. */
  static Job finishedJob(Configuration conf, String name) throws Exception {
    ApplicationReport app;
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      List<ApplicationReport> apps =
          yarn.getApplications(EnumSet.of(YarnApplicationState.FINISHED)).stream()
              .filter(a -> a.getName().equals(name))
              .sorted(Comparator.comparingLong(ApplicationReport::getStartTime))
              .toList();
      assertTrue(!apps.isEmpty(), "no finished YARN application named " + name);
      app = apps.get(apps.size() - 1);
    }
    Cluster cluster = new Cluster(conf);
    Job job = cluster.getJob(TypeConverter.fromYarn(app.getApplicationId()));
    assertTrue(job != null, "the history server knows " + app.getApplicationId());
    return job;
  }

  /** Every finished YARN job named {@code name} that started at or after {@code since} (ms). */
  static List<Job> finishedJobs(Configuration conf, String name, long since) throws Exception {
    List<ApplicationReport> apps;
    try (YarnClient yarn = YarnClient.createYarnClient()) {
      yarn.init(conf);
      yarn.start();
      apps =
          yarn.getApplications(EnumSet.of(YarnApplicationState.FINISHED)).stream()
              .filter(a -> a.getName().equals(name) && a.getStartTime() >= since)
              .toList();
    }
    Cluster cluster = new Cluster(conf);
    List<Job> jobs = new java.util.ArrayList<>();
    for (ApplicationReport app : apps) {
      jobs.add(cluster.getJob(TypeConverter.fromYarn(app.getApplicationId())));
    }
    return jobs;
  }

  /** Whether a finished job's maps ran Themis's collector. */
  static boolean ranThemis(Job job) {
    try {
      return job.getCounters()
              .findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_OUTPUT_FILE_BYTES)
              .getValue()
          > 0;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A finished job by its id (through the history server). */
  static Job finishedJob(Configuration conf, org.apache.hadoop.mapreduce.JobID id)
      throws Exception {
    Job job = new Cluster(conf).getJob(id);
    assertTrue(job != null, "the history server knows " + id);
    return job;
  }

  /** The audit of a Themis job: exactly one write and one read of every intermediate byte. */
  static IoAudit.Report assertTwoIo(Job job) throws Exception {
    IoAudit.Report report = IoAudit.of(job);
    LOG.info("I/O audit of {} ({}): {}", job.getJobName(), job.getJobID(), report.summary());
    assertTrue(report.twoIo(), job.getJobName() + " is not 2-IO: " + report.summary());
    Counters c = job.getCounters();
    assertTrue(
        c.findCounter(ThemisCounters.GROUP, ThemisCounters.REDUCE_FETCHED_SEGMENTS).getValue() > 0,
        "the reducers ran Themis's shuffle");
    assertTrue(
        c.findCounter(ThemisCounters.GROUP, ThemisCounters.MAP_OUTPUT_FILE_BYTES).getValue() > 0,
        "the maps ran Themis's collector");
    return report;
  }
}
