package dev.levee.bench.hadoop;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.MRJobConfig;
import picocli.CommandLine.Option;

/**
 * {@code --task-java-opts}: JVM flags for every map and reduce task of a suite's jobs, every arm
 * alike (a JFR recording, GC logging), recorded on each result line. Mixed into the options of the
 * suites that run MapReduce jobs.
 */
public final class TaskJavaOptions {
  @Option(
      names = "--task-java-opts",
      paramLabel = "FLAGS",
      description =
          "JVM flags added to every map and reduce task of every variant (a profile, e.g."
              + " -XX:StartFlightRecording=filename=/tmp/task-@taskid@.jfr; Hadoop replaces"
              + " @taskid@); recorded on each line")
  String flags = "";

  /** The flags as given, trimmed; empty for none. */
  public String flags() {
    return flags.trim();
  }

  /** Appends the flags to the map and reduce JVM options {@code conf} already holds. */
  public void applyTo(Configuration conf) {
    if (flags().isEmpty()) {
      return;
    }
    for (String key : new String[] {MRJobConfig.MAP_JAVA_OPTS, MRJobConfig.REDUCE_JAVA_OPTS}) {
      conf.set(key, (conf.get(key, "") + " " + flags()).trim());
    }
  }

  /** Records the flags among a result line's parameters, when there are any. */
  public void record(Map<String, Object> params) {
    if (!flags().isEmpty()) {
      params.put("task_java_opts", flags());
    }
  }
}
