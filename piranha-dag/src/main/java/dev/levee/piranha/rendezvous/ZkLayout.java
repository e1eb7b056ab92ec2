package dev.levee.piranha.rendezvous;

import dev.levee.piranha.dag.TaskId;

/**
 * Where a run lives in ZooKeeper:
 *
 * <pre>
 * &lt;root&gt;/&lt;run id&gt;                          the runner creates it, deletes it when the run ends
 *   attempt-&lt;k&gt;                              one per whole-job attempt
 *     tasks/&lt;task&gt;   EPHEMERAL    host:port pid container, written by each task when it listens
 *     done/&lt;task&gt;    PERSISTENT   the task's timeline, written once it pushed or committed all
 *     abort          PERSISTENT   "&lt;who&gt;: &lt;why&gt;"; the first create wins
 * </pre>
 *
 * Per-attempt paths mean a straggler of attempt k cannot confuse attempt k+1; ephemeral task nodes
 * mean a dead task's registration disappears with its session.
 */
public final class ZkLayout {
  public static final String TASKS = "tasks";
  public static final String DONE = "done";
  public static final String ABORT = "abort";

  private final String run;
  private final String attempt;

  public ZkLayout(String root, String runId, int attempt) {
    String r = root.endsWith("/") ? root.substring(0, root.length() - 1) : root;
    this.run = r + "/" + runId;
    this.attempt = run + "/attempt-" + attempt;
  }

  public String run() {
    return run;
  }

  public String attempt() {
    return attempt;
  }

  public String tasks() {
    return attempt + "/" + TASKS;
  }

  public String done() {
    return attempt + "/" + DONE;
  }

  public String abort() {
    return attempt + "/" + ABORT;
  }

  public String task(TaskId id) {
    return tasks() + "/" + id;
  }

  public String done(TaskId id) {
    return done() + "/" + id;
  }

  /** The task a path under tasks/ or done/ names, or null. */
  public TaskId taskOf(String path, String dir) {
    String prefix = dir + "/";
    if (!path.startsWith(prefix)) {
      return null;
    }
    try {
      return TaskId.parse(path.substring(prefix.length()));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
