package dev.levee.it.themis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.levee.it.hadoop.LiveFiles;
import dev.levee.it.hadoop.MiniMapReduceCluster;
import dev.levee.it.hadoop.SharedClusterExtension;
import dev.levee.it.hadoop.TestClusters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.JobCounter;
import org.apache.hadoop.mapreduce.MRJobConfig;
import org.apache.hadoop.mapreduce.TaskCompletionEvent;
import org.apache.hadoop.mapreduce.lib.input.FileInputFormat;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Themis keeps Hadoop's task-level fault tolerance, which the paper's Themis gave up for job
 * restarts: a reduce attempt killed with SIGKILL in the middle of its shuffle is rerun and fetches
 * again; a finished map whose output file disappears is rerun when the reducer reports the fetch
 * failure. Both jobs end with stock's output.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class FaultToleranceOnThemisTest {
  @RegisterExtension static final SharedClusterExtension CLUSTER = TestClusters.SHARED;

  private static final Path BASE = new Path("/it/themis/faults");
  private static final int MAPS = 5;
  private static Path input;
  private static String stock;

  @BeforeAll
  static void inputAndOracle() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    FileSystem fs = cluster.fileSystem();
    input = TextInput.zipf(fs, new Path(BASE, "in"), MAPS, 4_000, 2_000, 1.0, 40, 51);
    Path out = new Path(BASE, "stock");
    assertTrue(job(ThemisJobs.stockLocal(cluster), out).waitForCompletion(false));
    stock = ThemisJobs.output(fs, out);
  }

  private static Job job(Configuration conf, Path out) throws IOException {
    Job job = Job.getInstance(conf);
    KeyStats.configure(job);
    job.setMapperClass(SlowMaps.class);
    job.setNumReduceTasks(1);
    FileInputFormat.addInputPath(job, input);
    FileOutputFormat.setOutputPath(job, out);
    return job;
  }

  @Test
  void aReduceAttemptKilledMidFetchIsRerunAndFetchesAgain() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    Configuration conf = ThemisJobs.themis(cluster.clientConf());
    // The reducer starts at once and fetches each map output as it appears; maps take seconds.
    conf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 0.0f);
    conf.setLong(SlowMaps.SLEEP_MS, 12_000);
    conf.set(SlowMaps.SLOW_MAPS, "2,3,4");
    Path out = new Path(BASE, "killed-reducer");
    Job job = job(conf, out);
    job.submit();

    String attempt = job.getJobID().toString().replace("job_", "attempt_") + "_r_000000_0";
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    ProcessHandle reducer = null;
    String seen = "nothing";
    while (reducer == null && System.nanoTime() < deadline && !job.isComplete()) {
      Optional<ProcessHandle> p = processWith(attempt);
      boolean fetched = fetchedSome(cluster, attempt);
      int mapsDone = mapsSucceeded(job);
      seen =
          "process "
              + p.map(ProcessHandle::pid)
              + ", fetched "
              + fetched
              + ", maps done "
              + mapsDone;
      // Mid-fetch: the attempt's own log shows a fetched map output while maps are still running.
      if (p.isPresent() && fetched && mapsDone < MAPS) {
        reducer = p.get();
      } else {
        Thread.sleep(50);
      }
    }
    assertTrue(
        reducer != null,
        "never caught " + attempt + " in the middle of its shuffle; last: " + seen);
    assertTrue(reducer.destroyForcibly(), "SIGKILL sent to " + reducer.pid());
    reducer.onExit().get(30, TimeUnit.SECONDS);
    assertFalse(reducer.isAlive(), "the reduce attempt's JVM is dead");

    assertTrue(
        job.waitForCompletion(false), "the job recovers: " + job.getStatus().getFailureInfo());
    assertEquals(stock, ThemisJobs.output(cluster.fileSystem(), out));
    Counters c = job.getCounters();
    assertTrue(
        c.findCounter(JobCounter.TOTAL_LAUNCHED_REDUCES).getValue() >= 2, "a second attempt ran");
    ThemisJobs.assertTwoIo(ThemisJobs.finishedJob(cluster.clientConf(), "key-stats"));
  }

  @Test
  void aLostMapOutputMakesTheMapRunAgain() throws Exception {
    MiniMapReduceCluster cluster = CLUSTER.cluster();
    Configuration conf = ThemisJobs.themis(cluster.clientConf());
    // The reducer starts after every map is done; map 0 is done long before the others.
    conf.setFloat(MRJobConfig.COMPLETED_MAPS_FOR_REDUCE_SLOWSTART, 1.0f);
    conf.setLong(SlowMaps.SLEEP_MS, 6_000);
    conf.set(SlowMaps.SLOW_MAPS, "1,2,3,4");
    // The reducer reports every failed fetch, and one report is enough for the AM to rerun the map.
    // (Stock reports every 10th failure; with one map left, its health check gives up before that,
    // on stock's shuffle as on Themis's, which keeps Hadoop's fetchers and scheduler.)
    conf.setInt(MRJobConfig.SHUFFLE_FETCH_FAILURES, 1);
    conf.setInt(MRJobConfig.MAX_FETCH_FAILURES_NOTIFICATIONS, 1);
    Path out = new Path(BASE, "lost-map-output");
    Job job = job(conf, out);
    job.submit();

    String map0 = job.getJobID().toString().replace("job_", "attempt_") + "_m_000000_0";
    java.nio.file.Path file = null;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (file == null && System.nanoTime() < deadline && !job.isComplete()) {
      if (mapSucceeded(job, map0)) {
        file = mapOutput(cluster, map0).orElse(null);
      }
      if (file == null) {
        Thread.sleep(50);
      }
    }
    assertTrue(file != null, "never found the output of " + map0);
    assertTrue(mapsSucceeded(job) < MAPS, "the reducer cannot have fetched it yet");
    Files.delete(file);

    assertTrue(
        job.waitForCompletion(false), "the job recovers: " + job.getStatus().getFailureInfo());
    assertEquals(stock, ThemisJobs.output(cluster.fileSystem(), out));
    Counters c = job.getCounters();
    assertTrue(
        c.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue() > MAPS,
        "the lost map ran again: " + c.findCounter(JobCounter.TOTAL_LAUNCHED_MAPS).getValue());
    assertTrue(c.findCounter(JobCounter.NUM_FAILED_MAPS).getValue() >= 1);
  }

  private static int mapsSucceeded(Job job) throws Exception {
    int n = 0;
    for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1_000)) {
      if (e.isMapTask() && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        n++;
      }
    }
    return n;
  }

  private static boolean mapSucceeded(Job job, String attempt) throws Exception {
    for (TaskCompletionEvent e : job.getTaskCompletionEvents(0, 1_000)) {
      if (e.getTaskAttemptId().toString().equals(attempt)
          && e.getStatus() == TaskCompletionEvent.Status.SUCCEEDED) {
        return true;
      }
    }
    return false;
  }

  /** The JVM running a task attempt: YarnChild's command line names the attempt. */
  private static Optional<ProcessHandle> processWith(String attempt) {
    try (Stream<ProcessHandle> all = ProcessHandle.allProcesses()) {
      List<ProcessHandle> found = new ArrayList<>();
      all.forEach(
          p -> {
            try {
              String cmd =
                  new String(
                      Files.readAllBytes(java.nio.file.Path.of("/proc", "" + p.pid(), "cmdline")),
                      StandardCharsets.UTF_8);
              if (cmd.contains("YarnChild") && cmd.contains(attempt)) {
                found.add(p);
              }
            } catch (IOException | SecurityException e) {
              // gone, or not ours
            }
          });
      return found.stream().findFirst();
    }
  }

  /** Whether a reduce attempt has logged holding a fetched map output (Themis logs each). */
  private static boolean fetchedSome(MiniMapReduceCluster cluster, String attempt)
      throws IOException {
    String line = attempt + ": holds the output of attempt_";
    return LiveFiles.named(cluster.workDir().resolve("yarn"), "syslog").stream()
        .filter(f -> f.toString().contains(appOf(attempt)))
        .anyMatch(
            f -> {
              try {
                return Files.readString(f, StandardCharsets.ISO_8859_1).contains(line);
              } catch (IOException e) {
                return false;
              }
            });
  }

  private static String appOf(String attempt) {
    String[] p = attempt.split("_");
    return "application_" + p[1] + "_" + p[2];
  }

  /** file.out of a finished map, in its NodeManager's local directory. */
  private static Optional<java.nio.file.Path> mapOutput(
      MiniMapReduceCluster cluster, String attempt) throws IOException {
    return LiveFiles.named(cluster.workDir().resolve("yarn"), "file.out").stream()
        .filter(p -> p.getParent().getFileName().toString().equals(attempt))
        .findFirst();
  }
}
