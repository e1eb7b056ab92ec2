package dev.levee.containers;

import java.util.HashMap;
import java.util.Map;

/** What one job submitted from the client container printed: its counters and its output digest. */
record JobRun(int exitCode, Map<String, Long> counters, String output, String log, String stdout) {
  static JobRun parse(Docker.Result r) {
    Map<String, Long> counters = new HashMap<>();
    String output = null;
    for (String line : r.out().split("\n")) {
      String[] f = line.split("\t");
      if (f.length == 4 && f[0].equals("COUNTER")) {
        counters.put(f[1] + "::" + f[2], Long.parseLong(f[3]));
      } else if (f.length == 3 && f[0].equals("OUTPUT")) {
        output = f[1] + ", sha256 " + f[2];
      }
    }
    return new JobRun(r.exitCode(), counters, output, r.err(), r.out());
  }

  long counter(String group, String name) {
    return counters.getOrDefault(group + "::" + name, 0L);
  }

  boolean succeeded() {
    return exitCode == 0 && output != null;
  }

  /**
   * The first failed task attempt's error as the job client printed it ({@code Task Id : ...,
   * Status : FAILED}, then its error and its causes), without stack frames; "" when no attempt
   * failed.
   */
  String firstTaskFailure() {
    int at = log.indexOf("Status : FAILED");
    if (at < 0) {
      return "";
    }
    int end = log.indexOf("Task Id :", at);
    StringBuilder failure = new StringBuilder();
    for (String line : log.substring(at, end < 0 ? log.length() : end).split("\n")) {
      String l = line.strip();
      if (!l.isEmpty() && !l.startsWith("at ") && !l.startsWith("...")) {
        failure.append(l).append('\n');
      }
    }
    return failure.toString().strip();
  }

  String tail() {
    return log.length() > 3000 ? log.substring(log.length() - 3000) : log;
  }
}
