package dev.levee.containers;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one run of the leaky buffer's job ({@code LeakyRun} of integration-tests/containers-spark)
 * printed: its {@code key=value} lines (counts, digests, hosts, bytes) and one line per reduce task
 * of the grouping (its shuffle manager, whether the leaky table loaded).
 */
record SparkRun(int exitCode, Map<String, String> values, List<String> reduceTasks, String log) {
  /** The sample spark-defaults.conf, as spark-submit reads it: the leaky buffer on. */
  static final String LEAKY =
      "--properties-file " + ContainerCluster.LEVEE + "/conf/spark-defaults.conf";

  /**
   * Submits {@code LeakyRun <mode> <records> <executors>} with {@code options} (stock: none; the
   * leaky buffer: {@link #LEAKY}), one 512 MiB, one-core executor per worker.
   */
  static SparkRun submit(
      SparkStandalone spark, String mode, String options, int records, int executors) {
    return parse(
        spark.submit(
            options + " --conf spark.executor.memory=512m --conf spark.executor.cores=1",
            "dev.levee.containers.spark.LeakyRun",
            mode + " " + records + " " + executors,
            300));
  }

  static SparkRun parse(Docker.Result r) {
    Map<String, String> values = new HashMap<>();
    List<String> tasks = new ArrayList<>();
    for (String line : r.out().split("\n")) {
      if (line.startsWith("reduce_task=")) {
        tasks.add(line.substring("reduce_task=".length()).strip());
      } else if (line.matches("[a-z_]+=\\S*")) {
        String[] kv = line.split("=", 2);
        values.put(kv[0], kv[1]);
      }
    }
    return new SparkRun(r.exitCode(), values, tasks, r.err());
  }

  boolean succeeded() {
    return exitCode == 0 && values.containsKey("join_digest");
  }

  String get(String key) {
    return values.getOrDefault(key, "(missing)");
  }

  String tail() {
    return log.length() > 4000 ? log.substring(log.length() - 4000) : log;
  }

  @Override
  public String toString() {
    return "SparkRun[exit " + exitCode + ", " + values + ", reduce tasks " + reduceTasks + "]";
  }
}
