package dev.levee.piranha.exec;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Wall-clock instants of one task's life (epoch milliseconds), for the paper-style breakdown of a
 * run by stage (Figs 7-8): when it started, registered, had all its input, finished computing, and
 * had pushed or written everything. Published in the task's {@code done} znode.
 */
public final class TaskTimeline {
  public static final String START = "start";
  public static final String REGISTERED = "registered";
  public static final String INPUT = "input";
  public static final String COMPUTED = "computed";
  public static final String DONE = "done";

  private final Map<String, Long> marks = new LinkedHashMap<>();

  public void mark(String what) {
    marks.put(what, System.currentTimeMillis());
  }

  public void mark(String what, long epochMillis) {
    marks.put(what, epochMillis);
  }

  public Long get(String what) {
    return marks.get(what);
  }

  public Map<String, Long> marks() {
    return Map.copyOf(marks);
  }

  public String encode() {
    StringBuilder s = new StringBuilder();
    marks.forEach((k, v) -> s.append(k).append('=').append(v).append('\n'));
    return s.toString();
  }

  public static TaskTimeline decode(String text) {
    TaskTimeline t = new TaskTimeline();
    for (String line : text.split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        try {
          t.marks.put(line.substring(0, eq), Long.parseLong(line.substring(eq + 1).trim()));
        } catch (NumberFormatException ignored) {
          // a field from a newer version; skip it
        }
      }
    }
    return t;
  }
}
