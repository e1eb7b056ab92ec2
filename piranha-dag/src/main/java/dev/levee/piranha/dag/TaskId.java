package dev.levee.piranha.dag;

/**
 * One task of a run: a stage's index in the DAG and a partition within the stage. Its text form
 * ({@code t<stage>-<partition>}) names its znodes.
 */
public record TaskId(int stage, int partition) implements Comparable<TaskId> {

  public TaskId {
    if (stage < 0 || partition < 0) {
      throw new IllegalArgumentException("negative task id " + stage + "/" + partition);
    }
  }

  /** Parses {@link #toString()}'s form; throws IllegalArgumentException on anything else. */
  public static TaskId parse(String text) {
    if (!text.startsWith("t")) {
      throw new IllegalArgumentException("not a task id: " + text);
    }
    int dash = text.indexOf('-');
    if (dash < 0) {
      throw new IllegalArgumentException("not a task id: " + text);
    }
    return new TaskId(
        Integer.parseInt(text.substring(1, dash)), Integer.parseInt(text.substring(dash + 1)));
  }

  @Override
  public int compareTo(TaskId o) {
    return stage != o.stage
        ? Integer.compare(stage, o.stage)
        : Integer.compare(partition, o.partition);
  }

  @Override
  public String toString() {
    return "t" + stage + "-" + partition;
  }
}
