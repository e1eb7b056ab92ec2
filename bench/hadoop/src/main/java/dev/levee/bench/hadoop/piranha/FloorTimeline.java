package dev.levee.bench.hadoop.piranha;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Counters;
import org.apache.hadoop.mapreduce.JobID;
import org.apache.hadoop.mapreduce.jobhistory.JobHistoryParser;
import org.apache.hadoop.mapreduce.v2.jobhistory.JobHistoryUtils;

/**
 * Where a floor job's wall time goes: the instants of its life, as seconds after the client began,
 * from three sources on one clock (one machine): the job history file (submission at the
 * ResourceManager, ApplicationMaster start, job start, each task container's launch and end, job
 * end after commit), the ApplicationMaster's log (when each task container was assigned), and the
 * tasks' own marks (when task code began and ended, so JVM start shows apart from task work).
 *
 * <p>Each instant is the latest over the job's tasks: a floor job's critical path ends in its last
 * task, and on two cores the last container is what everybody waits for.
 */
final class FloorTimeline {
  static final String PREFIX = "at.";

  /** Counter group the floor jobs' tasks write their own start and end instants to. */
  static final String GROUP = "levee.floor";

  /** Every instant, in the order a job passes them (the runner's own last two only for Piranha). */
  static final List<String> ORDER =
      List.of(
          "submitted",
          "am-started",
          "job-started",
          "containers-assigned",
          "containers-launched",
          "task-code-started",
          "tasks-registered",
          "task-code-ended",
          "tasks-finished",
          "job-finished",
          "runner-done",
          "client-returned");

  static final String CODE_START = "code-start-ms";
  static final String CODE_END = "code-end-ms";

  private static final DateTimeFormatter LOG_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS");

  private FloorTimeline() {}

  /**
   * The instants of job {@code id}, run by a client from {@code clientStart} to {@code clientEnd}
   * (epoch ms). {@code taskMarks}: the tasks' own code start and end instants, or null to read them
   * from the counters the floor jobs' tasks write.
   */
  static Map<String, Double> of(
      Configuration conf,
      JobID id,
      long clientStart,
      long clientEnd,
      java.nio.file.Path clusterDir,
      long[] taskMarks)
      throws IOException {
    JobHistoryParser.JobInfo job =
        new JobHistoryParser(FileSystem.get(conf), historyFile(conf, id)).parse();
    long launched = 0;
    long finished = 0;
    long codeStart = 0;
    long codeEnd = 0;
    for (JobHistoryParser.TaskInfo task : job.getAllTasks().values()) {
      for (JobHistoryParser.TaskAttemptInfo a : task.getAllTaskAttempts().values()) {
        launched = Math.max(launched, a.getStartTime());
        finished = Math.max(finished, a.getFinishTime());
        Counters c = a.getCounters();
        if (c != null && taskMarks == null) {
          codeStart = Math.max(codeStart, c.findCounter(GROUP, CODE_START).getValue());
          codeEnd = Math.max(codeEnd, c.findCounter(GROUP, CODE_END).getValue());
        }
      }
    }
    if (taskMarks != null) {
      codeStart = taskMarks[0];
      codeEnd = taskMarks[1];
    }
    Map<String, Long> at = new LinkedHashMap<>();
    at.put("submitted", job.getSubmitTime());
    at.put("am-started", job.getAMInfos().isEmpty() ? 0 : job.getAMInfos().get(0).getStartTime());
    at.put("job-started", job.getLaunchTime());
    at.put("containers-assigned", lastAssignment(clusterDir, id));
    at.put("containers-launched", launched);
    at.put("task-code-started", codeStart);
    at.put("task-code-ended", codeEnd);
    at.put("tasks-finished", finished);
    at.put("job-finished", job.getFinishTime());
    at.put("client-returned", clientEnd);
    Map<String, Double> m = new LinkedHashMap<>();
    at.forEach(
        (k, v) -> {
          if (v > 0) {
            m.put(PREFIX + k, (v - clientStart) / 1000.0);
          }
        });
    return m;
  }

  /**
   * The job's history file: the ApplicationMaster writes it to the intermediate directory, the
   * history server moves it to the done directory when a client asks for the finished job.
   */
  private static Path historyFile(Configuration conf, JobID id) throws IOException {
    FileSystem fs = FileSystem.get(conf);
    String name = id + "-*.jhist";
    List<Path> globs =
        List.of(
            new Path(
                JobHistoryUtils.getConfiguredHistoryServerDoneDirPrefix(conf), "*/*/*/*/" + name),
            new Path(
                JobHistoryUtils.getConfiguredHistoryIntermediateDoneDirPrefix(conf), "*/" + name));
    // The move between the two is not atomic for a lister: look again a few times.
    for (int tries = 0; tries < 50; tries++) {
      for (Path glob : globs) {
        FileStatus[] found = fs.globStatus(glob);
        if (found != null && found.length > 0) {
          return found[0].getPath();
        }
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    throw new IOException("no job history file for " + id + " under " + globs);
  }

  /** When the ApplicationMaster assigned its last task container (its log's clock), or 0. */
  private static long lastAssignment(java.nio.file.Path clusterDir, JobID id) throws IOException {
    String app = "application_" + id.getJtIdentifier() + "_" + String.format("%04d", id.getId());
    java.nio.file.Path yarn = clusterDir.resolve("yarn");
    if (!Files.isDirectory(yarn)) {
      return 0;
    }
    List<java.nio.file.Path> logs;
    try (Stream<java.nio.file.Path> s = Files.walk(yarn, 7)) {
      logs =
          s.filter(
                  p ->
                      p.getFileName().toString().equals("syslog")
                          && p.getParent().getFileName().toString().endsWith("_000001")
                          && p.getParent().getParent().getFileName().toString().equals(app))
              .toList();
    }
    long last = 0;
    for (java.nio.file.Path log : logs) {
      try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          if (line.contains("Assigned container ") && line.contains(" to attempt_")) {
            last = Math.max(last, logTime(line));
          }
        }
      }
    }
    return last;
  }

  private static long logTime(String line) {
    try {
      return LocalDateTime.parse(line.substring(0, 23), LOG_TIME)
          .atZone(ZoneId.systemDefault())
          .toInstant()
          .toEpochMilli();
    } catch (DateTimeParseException | StringIndexOutOfBoundsException e) {
      return 0;
    }
  }
}
